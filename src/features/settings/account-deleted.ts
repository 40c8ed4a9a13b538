/**
 * What this device does once the server has deleted the account: the session goes (the server
 * already ended it), and the account's local database is deleted on the page that follows, where
 * no sync engine holds it open any more (the user id is carried there in sessionStorage, never
 * in the URL).
 */
import { databaseNameFor } from '../../db/app-database.ts';

export const ACCOUNT_DELETED_PATH = '/account-deleted';
const DELETED_ACCOUNT_KEY = 'satchel:deleted-account';

function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

let leaving = false;

/**
 * Called after the deletion committed: signs out here and opens the farewell page afresh. Once
 * per document: the device that deleted the account also hears the hub's accountDeleted, and a
 * second sign-out and page load would only restart the first.
 */
export async function leaveDeletedAccount(userId: string, signOut: () => Promise<void>) {
  if (leaving) return;
  leaving = true;
  sessionStore()?.setItem(DELETED_ACCOUNT_KEY, userId);
  await signOut();
  // A full load: nothing of the deleted account stays in memory (workers, caches, live queries).
  window.location.assign(ACCOUNT_DELETED_PATH);
}

/** On the farewell page: deletes the deleted account's copy on this device, once. */
export function forgetDeletedAccountData(): void {
  const store = sessionStore();
  const userId = store?.getItem(DELETED_ACCOUNT_KEY);
  if (!userId) return;
  store?.removeItem(DELETED_ACCOUNT_KEY);
  try {
    indexedDB.deleteDatabase(databaseNameFor(userId));
  } catch {
    // No IndexedDB here, or a strange id: there is nothing to delete.
  }
}
