/**
 * After the palette opens a result, focus goes to the new page's h1, so a screen reader starts
 * reading the page that was opened and Tab continues from its top. Pages read their data from
 * the device and may first render a placeholder h1 that the real one replaces, so this follows
 * the heading for a short while, but only while focus is still where the palette left it (the
 * page, or the element focus returned to when the dialog closed): never taken from the user.
 */
const FOLLOW_MS = 2_000;

export function focusPageHeading(
  returnedTo: Element | null,
  root: ParentNode = document,
): () => void {
  const started = performance.now();
  let frame = 0;
  let focused: HTMLElement | null = null;
  const step = () => {
    const active = document.activeElement;
    const untouched =
      active === null ||
      active === document.body ||
      active === returnedTo ||
      (focused !== null && active === focused);
    const heading = root.querySelector<HTMLElement>('main h1');
    if (untouched && heading && heading !== active) {
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: false });
      focused = heading;
    }
    if (performance.now() - started < FOLLOW_MS && (untouched || active === heading)) {
      frame = requestAnimationFrame(step);
    }
  };
  frame = requestAnimationFrame(step);
  return () => cancelAnimationFrame(frame);
}
