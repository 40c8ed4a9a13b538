/**
 * Whether a chat message is gone: deleted (here or by anyone, arriving through sync) or removed
 * from the device outright (an API caller's delete). Read by id, not from the window on screen:
 * the window drops messages as the reader scrolls, and a message scrolled away is not gone.
 */
import type { LocalChatMessage } from '../../data/chat.ts';
import type { AppDatabase } from '../../db/app-database.ts';
import { useLiveQuery } from '../../db/live-query.ts';

export const isGone = (row: LocalChatMessage | undefined): boolean =>
  !row || row._deleted || row.deleted;

/** False while `id` is null or its row is still being read. */
export function useMessageGone(db: AppDatabase, id: string | null): boolean {
  const result = useLiveQuery(
    async () => ({ id, gone: id !== null && isGone(await db.chatMessages.get(id)) }),
    [db, id],
  );
  // Until the new id's answer is in, the hook may still hold the previous id's.
  return result?.id === id && result.gone;
}
