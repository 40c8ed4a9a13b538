/**
 * Leaving or resetting the demo: full page loads, so the composition root starts again and picks
 * the real app (or a freshly seeded demo) from the tab's mark. No imports beyond demo-mode.ts:
 * the demo bar, which ships with the app shell, uses these.
 */
import { clearDemoMark, DEMO_FLAG_KEY, DEMO_RESET_KEY } from './demo-mode.ts';

function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** Clears the tab's demo mark and opens `path` (the sign-up page, or the site's home). */
export function leaveDemo(path: string): void {
  clearDemoMark(sessionStore());
  window.location.assign(path);
}

/** Asks the next start to drop the demo's database and seed it again, then starts on the dashboard. */
export function resetDemo(): void {
  try {
    const storage = sessionStore();
    storage?.setItem(DEMO_FLAG_KEY, '1');
    storage?.setItem(DEMO_RESET_KEY, '1');
  } catch {
    // Without storage the demo cannot be reset by reload; the page reloads anyway.
  }
  window.location.assign('/dashboard');
}
