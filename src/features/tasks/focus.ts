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
      return;
    }
    if (++tries < 300) setTimeout(attempt, 16);
  };
  setTimeout(attempt, 16);
}
