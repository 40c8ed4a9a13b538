/**
 * Whether this tab runs the demo (/demo: the real app on a workspace that lives only in this
 * browser). Read by the entry (main.tsx) and the composition root (mount-app.tsx) before anything
 * else starts, so it has no imports: it ships in the first bundle and must stay tiny.
 *
 * The rule: opening /demo enters the demo and marks this tab (sessionStorage, so a new browser
 * session or another tab opened by hand is the real app again, and a reload stays in the demo).
 * While marked, every app path runs the demo. Any sign-in or sign-up page leaves it: the mark is
 * cleared and the real app starts there, so a real sign-in always takes over. The demo's data
 * sits in its own database (`satchel-<DEMO_USER_ID>`), never in a real user's (`satchel-<uuid>`).
 */

/** sessionStorage key of the tab's demo mark. */
export const DEMO_FLAG_KEY = 'satchel.demo';
/** sessionStorage key asking the next demo start to drop its database and seed it again. */
export const DEMO_RESET_KEY = 'satchel.demo-reset';
export const DEMO_ENTRY_PATH = '/demo';
/**
 * The demo's fixed user, a UUID like every real user's id: task assignees and "my tasks" compare
 * against it, and the contract's schemas take only UUIDs there. Its database is
 * `satchel-<this id>` (app-database.ts databaseNameFor); no real account is ever given it.
 */
export const DEMO_USER_ID = 'de7a0000-0000-4000-8000-0000000000de';

/**
 * The user timing set when the demo's first screen is shown (hide-demo-entry.ts), read by
 * bench/demo-benchmarks.ts from Lighthouse's report.
 */
export const DEMO_SHOWN_MARK = 'satchel:demo-shown';

/** What opening or previewing a file says in the demo: its files are metadata, with no bytes. */
export const DEMO_FILE_NOTE = "This is a demo file: its contents aren't stored in the demo.";

/** Pages where a visitor signs in or up: the demo never runs there. */
const accountPaths = [
  '/login',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/verify-email',
  '/auth/',
];

function isAccountPath(pathname: string): boolean {
  return accountPaths.some((path) =>
    path.endsWith('/') ? pathname.startsWith(path) : pathname === path,
  );
}

type FlagStorage = Pick<Storage, 'getItem'> | undefined;

/** Whether `key` is set; unreadable storage counts as not set. */
export function readFlag(storage: FlagStorage, key: string): boolean {
  try {
    return storage?.getItem(key) === '1';
  } catch {
    return false;
  }
}

/** What the tab should be at `pathname`: `enter` (set the mark), `stay`, `leave` (clear it), `off`. */
export function demoModeAt(
  pathname: string,
  storage: FlagStorage,
): 'enter' | 'stay' | 'leave' | 'off' {
  const marked = readFlag(storage, DEMO_FLAG_KEY);
  if (isAccountPath(pathname)) return marked ? 'leave' : 'off';
  if (pathname === DEMO_ENTRY_PATH || pathname === `${DEMO_ENTRY_PATH}/`) return 'enter';
  return marked ? 'stay' : 'off';
}

export function runsDemo(mode: ReturnType<typeof demoModeAt>): boolean {
  return mode === 'enter' || mode === 'stay';
}

function write(storage: Storage | undefined, key: string, value: string | null): void {
  try {
    if (value === null) storage?.removeItem(key);
    else storage?.setItem(key, value);
  } catch {
    // Storage refused: the demo still runs for this page; a reload leaves it.
  }
}

export function markDemo(storage: Storage | undefined): void {
  write(storage, DEMO_FLAG_KEY, '1');
}

export function clearDemoMark(storage: Storage | undefined): void {
  write(storage, DEMO_FLAG_KEY, null);
  write(storage, DEMO_RESET_KEY, null);
}

export function isDemoUser(user: { id: string } | null | undefined): boolean {
  return user?.id === DEMO_USER_ID;
}
