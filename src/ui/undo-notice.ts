/**
 * An Undo notice: a toast with an Undo button, and Ctrl+Z (⌘Z on a Mac) doing the same while the
 * toast shows. The shortcut outlives the screen that raised it (a deleted project's screen is
 * gone by then) and leaves with the toast. It stays quiet in a field the user has typed in since
 * the notice, or that holds text (the field's own undo), and while a dialog is open; an empty field
 * focus was only moved to (the form shown once a list is empty) has nothing of its own to undo.
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
  let typedSince = false;
  const onInput = () => {
    typedSince = true;
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key.toLowerCase() !== 'z' || event.shiftKey || event.altKey) return;
    if (!(isMac() ? event.metaKey : event.ctrlKey) || event.defaultPrevented) return;
    if (isTyping(event.target) && (typedSince || hasText(event.target))) return;
    if (document.querySelector('[aria-modal="true"], [role="alertdialog"]')) return;
    event.preventDefault();
    run();
    toaster.dismiss(id);
  };
  document.addEventListener('keydown', onKeyDown);
  document.addEventListener('input', onInput, true);
  const unsubscribe = toaster.subscribe(() => {
    if (toaster.getCurrent()?.id !== id) stop();
  });
  function stop() {
    document.removeEventListener('keydown', onKeyDown);
    document.removeEventListener('input', onInput, true);
    unsubscribe();
  }
  return id;
}

function hasText(target: EventTarget | null): boolean {
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) {
    return target.value !== '';
  }
  return target instanceof HTMLElement && (target.textContent ?? '') !== '';
}
