/**
 * An Undo notice: a toast with an Undo button, and Ctrl+Z (⌘Z on a Mac) doing the same while the
 * toast shows. The shortcut outlives the screen that raised it (a deleted project's screen is
 * gone by then) and leaves with the toast. It stays quiet while the user types in a field (the
 * field's own undo) or has a dialog open.
 */
import type { Toaster } from './toaster.ts';
import { isTyping } from './use-key-shortcut.ts';

const isMac = () => /Mac|iPhone|iPad/.test(globalThis.navigator?.platform ?? '');

/** "Ctrl+Z" or "⌘Z", as the notice names it. */
export function undoShortcutLabel(): string {
  return isMac() ? '⌘Z' : 'Ctrl+Z';
}

export interface UndoNotice {
  message: string;
  undo: () => void;
  durationMs?: number;
}

/** Shows the notice; resolves nothing, cleans up after itself. */
export function showUndoNotice(toaster: Toaster, notice: UndoNotice): number {
  let done = false;
  const id = toaster.show({
    tone: 'success',
    message: `${notice.message}. Undo with ${undoShortcutLabel()}.`,
    ...(notice.durationMs === undefined ? {} : { durationMs: notice.durationMs }),
    action: { label: 'Undo', onAction: () => run() },
  });
  const run = () => {
    if (done) return;
    done = true;
    stop();
    notice.undo();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key.toLowerCase() !== 'z' || event.shiftKey || event.altKey) return;
    if (!(isMac() ? event.metaKey : event.ctrlKey) || event.defaultPrevented) return;
    if (isTyping(event.target)) return;
    if (document.querySelector('[aria-modal="true"], [role="alertdialog"]')) return;
    event.preventDefault();
    run();
    toaster.dismiss(id);
  };
  document.addEventListener('keydown', onKeyDown);
  const unsubscribe = toaster.subscribe(() => {
    if (toaster.getCurrent()?.id !== id) stop();
  });
  function stop() {
    document.removeEventListener('keydown', onKeyDown);
    unsubscribe();
  }
  return id;
}
