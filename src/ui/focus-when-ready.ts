/**
 * Keeps focus where the user is after a change re-renders a screen: waits (a few frames) for
 * the element the selector names to be there and shown, then focuses it, or with `closest`, its
 * nearest ancestor with that role (a card's row). Gives up quietly after about five seconds (a
 * busy phone can take more than one to write and re-render).
 *
 * Only the latest request waits: a newer call cancels the one still waiting, so two actions in a
 * row never pull focus back and forth. The document is taken once, at the call, and the wait ends
 * when its window is gone (a closed tab, or a test environment torn down mid-wait).
 */
let cancelWaiting: (() => void) | undefined;

export function focusWhenReady(selector: string, closestRole?: string): void {
  cancelWaiting?.();
  const doc = document;
  let tries = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancel = () => {
    clearTimeout(timer);
    if (cancelWaiting === cancel) cancelWaiting = undefined;
  };
  const attempt = () => {
    if (!doc.defaultView) return cancel();
    const found = firstShown(doc.querySelectorAll<HTMLElement>(selector));
    const target =
      found && closestRole ? found.closest<HTMLElement>(`[role="${closestRole}"]`) : found;
    if (target) {
      cancel();
      target.focus();
      hold(doc, target);
      return;
    }
    if (++tries < 300) timer = setTimeout(attempt, 16);
    else cancel();
  };
  cancelWaiting = cancel;
  timer = setTimeout(attempt, 16);
}

/**
 * The first match the user can see: one element may be drawn twice, once hidden (a phone's month
 * cell behind its dot) and once listed. Without layout (checkVisibility missing) all are shown.
 */
function firstShown(matches: NodeListOf<HTMLElement>): HTMLElement | null {
  for (const element of matches) {
    if (!('checkVisibility' in element) || element.checkVisibility()) return element;
  }
  return null;
}

const HOLD_FRAMES = 12;

/** Holds focus on `target` until the user acts (a key or a pointer) or HOLD_FRAMES pass. */
function hold(doc: Document, target: HTMLElement): void {
  let frames = 0;
  let userActed = false;
  const stop = () => {
    userActed = true;
  };
  doc.addEventListener('pointerdown', stop, { capture: true, once: true });
  doc.addEventListener('keydown', stop, { capture: true, once: true });
  const check = () => {
    if (userActed || !doc.defaultView || !target.isConnected || ++frames > HOLD_FRAMES) {
      doc.removeEventListener('pointerdown', stop, { capture: true });
      doc.removeEventListener('keydown', stop, { capture: true });
      return;
    }
    if (!target.contains(doc.activeElement)) target.focus();
    setTimeout(check, 16);
  };
  setTimeout(check, 16);
}
