/**
 * Keeps focus where the user is after a change re-renders the board: waits (a few frames) for
 * the element the selector names to be there, then focuses it, or with `closest`, its nearest
 * ancestor with that role (a card's row). Gives up quietly after about five seconds (a busy
 * phone can take more than one to write and re-render).
 */
export function focusWhenReady(selector: string, closestRole?: string): void {
  let tries = 0;
  const attempt = () => {
    const found = document.querySelector<HTMLElement>(selector);
    const target =
      found && closestRole ? found.closest<HTMLElement>(`[role="${closestRole}"]`) : found;
    if (target) {
      target.focus();
      hold(target);
      return;
    }
    if (++tries < 300) setTimeout(attempt, 16);
  };
  setTimeout(attempt, 16);
}

const HOLD_FRAMES = 12;

/** Holds focus on `target` until the user acts (a key or a pointer) or HOLD_FRAMES pass. */
function hold(target: HTMLElement): void {
  let frames = 0;
  let userActed = false;
  const stop = () => {
    userActed = true;
  };
  document.addEventListener('pointerdown', stop, { capture: true, once: true });
  document.addEventListener('keydown', stop, { capture: true, once: true });
  const check = () => {
    if (userActed || !target.isConnected || ++frames > HOLD_FRAMES) {
      document.removeEventListener('pointerdown', stop, { capture: true });
      document.removeEventListener('keydown', stop, { capture: true });
      return;
    }
    if (!target.contains(document.activeElement)) target.focus();
    setTimeout(check, 16);
  };
  setTimeout(check, 16);
}
