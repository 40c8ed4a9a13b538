/**
 * The demo skips its entry screen (start-demo.ts starts the router on the dashboard), so the
 * prerendered copy of /demo ("Opening the demo workspace…") is not taken over by a screen of the
 * same page: the demo's bar hides it once the app's first screen has its data. Until then the
 * live page fills in behind it (hidden by the copy's `#prerendered:not([hidden]) + #root` rule):
 * its panels, each filled by a read of its own, move each other as they fill, and the visitor
 * should not see that (Lighthouse counts it as layout shift). Nothing is carried over from the
 * copy (the dashboard is another page: a field or click on the copy has no counterpart there).
 */
import { PRERENDERED_ID } from '../features/marketing/prerendered-handover.ts';
import { DEMO_SHOWN_MARK } from './demo-mode.ts';

/**
 * What a screen says while its local data is on its way: the workspace gate (workspace-gate.tsx)
 * and the dashboard's panels (dashboard-panel.tsx, dashboard-money.tsx).
 */
const stillOpening = /Loading…|Opening your workspace…|Setting up your workspace…/;

/** Longest the copy waits for the live page to settle once the shell is there. */
export const SETTLE_TIMEOUT_MS = 3000;

/**
 * Hides the copy at once. The hidden copy is removed when the browser is idle, as
 * use-prerendered-takeover.ts does: removing it is layout work that would lengthen the commit
 * that shows the app.
 */
export function hideDemoEntry(doc: Document = document): void {
  const copy = doc.getElementById(PRERENDERED_ID);
  if (!copy || copy.hidden) return;
  copy.hidden = true;
  // The skip link (getElementById('main')) must reach the live page's main.
  copy.querySelector('#main')?.removeAttribute('id');
  const remove = () => copy.remove();
  const view = doc.defaultView;
  if (view && typeof view.requestIdleCallback === 'function') {
    view.requestIdleCallback(remove, { timeout: 2000 });
  } else {
    setTimeout(remove, 200);
  }
}

/**
 * Hides the copy once the live page beside it no longer says it is opening or loading (checked on
 * each change, in the same task as the commit that settles it, so before it paints), or after
 * `timeoutMs` whatever it says. Returns a cancel for the caller's cleanup.
 */
export function revealDemoWhenSettled(
  doc: Document = document,
  timeoutMs = SETTLE_TIMEOUT_MS,
): () => void {
  const copy = doc.getElementById(PRERENDERED_ID);
  const live = copy?.nextElementSibling;
  if (!copy || copy.hidden || !live) return () => undefined;
  let done = false;
  const stop = () => {
    done = true;
    observer.disconnect();
    clearTimeout(timer);
  };
  const reveal = (settled: boolean) => {
    if (done) return;
    stop();
    hideDemoEntry(doc);
    // For the benchmarks (bench/demo-benchmarks.ts reads it from Lighthouse's user timings).
    doc.defaultView?.performance?.mark?.(DEMO_SHOWN_MARK, { detail: { settled } });
  };
  const check = () => {
    if (!stillOpening.test(live.textContent ?? '')) reveal(true);
  };
  const observer = new MutationObserver(check);
  observer.observe(live, { childList: true, subtree: true, characterData: true });
  const timer = setTimeout(() => reveal(false), timeoutMs);
  check();
  return stop;
}
