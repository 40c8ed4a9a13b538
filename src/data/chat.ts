/**
 * A project's chat on the device: its messages in the server's order, reactions, the member's read
 * marker and unread count, and the writes the chat makes. Every write is a local write through the
 * outbox (entity-writes.ts), so sending, editing, reacting and reading all work offline.
 *
 * Invariants:
 * - Order: messages the server has ordered (`seq` > 0) by seq, then this device's own messages
 *   still on their way (`seq` 0) by when they were written. Every device shows the server's order
 *   once it has the rows; only a message not yet sent sits at the end.
 * - A read marker only moves forward, here as on the server: marking read never lowers it.
 * - A message from another member counts as unread while its seq is above the marker; one's own
 *   messages and deleted ones never do.
 */
import {
  chatMessageEntity,
  chatReactionEntity,
  chatReadEntity,
  chatReadId,
} from '#contract/entities/chat.ts';
import { workspaceKeyRange, type AppDatabase, type LocalRow } from '../db/app-database.ts';
import { useLiveQuery } from '../db/live-query.ts';
import type { LocalWriteContext } from '../db/local-write.ts';
import { entityWrites } from './entity-writes.ts';

export type LocalChatMessage = LocalRow<'chat-message'>;
export type LocalChatReaction = LocalRow<'chat-reaction'>;

export const chatMessageWrites = entityWrites(chatMessageEntity);
export const chatReactionWrites = entityWrites(chatReactionEntity);
export const chatReadWrites = entityWrites(chatReadEntity);

/** Above any seq (a bigint change-log position, which stays a safe integer here). */
const MAX_SEQ = Number.MAX_SAFE_INTEGER;

/** How many messages a chat shows first, and how many more each step back in history adds. */
export const CHAT_PAGE = 50;

export interface ChatWindow {
  /** Oldest first: the newest `limit` ordered messages, then this device's unsent ones. */
  messages: LocalChatMessage[];
  /** Older messages exist on this device beyond the window. */
  hasOlder: boolean;
}

/** The newest `limit` messages of a project (see the header for the order). */
export async function readChatWindow(
  db: AppDatabase,
  projectId: string,
  limit: number,
): Promise<ChatWindow> {
  const ordered = await db.chatMessages
    .where('[projectId+seq]')
    .between([projectId, 1], [projectId, MAX_SEQ])
    .reverse()
    .filter((message) => !message._deleted)
    .limit(limit + 1)
    .toArray();
  const unsent = await db.chatMessages
    .where('[projectId+seq]')
    .equals([projectId, 0])
    .filter((message) => !message._deleted)
    .toArray();
  unsent.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  const hasOlder = ordered.length > limit;
  return { messages: [...ordered.slice(0, limit).reverse(), ...unsent], hasOlder };
}

export function useChatWindow(
  db: AppDatabase,
  projectId: string,
  limit: number,
): ChatWindow | undefined {
  return useLiveQuery(() => readChatWindow(db, projectId, limit), [db, projectId, limit]);
}

/** The project's reactions by message id. */
export function useChatReactions(
  db: AppDatabase,
  workspaceId: string,
  projectId: string,
): Map<string, LocalChatReaction[]> | undefined {
  return useLiveQuery(async () => {
    const rows = await db.chatReactions
      .where('[workspaceId+projectId]')
      .equals([workspaceId, projectId])
      .filter((row) => !row._deleted)
      .toArray();
    rows.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const byMessage = new Map<string, LocalChatReaction[]>();
    for (const row of rows)
      byMessage.set(row.messageId, [...(byMessage.get(row.messageId) ?? []), row]);
    return byMessage;
  }, [db, workspaceId, projectId]);
}

/** The seq up to which the member has read the project's chat (0: nothing yet). */
export async function readMarkerOf(
  db: AppDatabase,
  projectId: string,
  userId: string,
): Promise<number> {
  return markerSeq(await db.chatReads.get(chatReadId(projectId, userId)));
}

function markerSeq(marker: LocalRow<'chat-read'> | undefined): number {
  return marker && !marker._deleted ? marker.lastReadSeq : 0;
}

export function useReadMarker(
  db: AppDatabase,
  projectId: string,
  userId: string,
): number | undefined {
  return useLiveQuery(() => readMarkerOf(db, projectId, userId), [db, projectId, userId]);
}

/** Whether a message in the range above a marker counts as unread for the member. */
function countsAsUnread(message: LocalChatMessage, userId: string): boolean {
  return !message._deleted && !message.deleted && message.createdBy !== userId;
}

/**
 * Ranges per query below: Dexie merges one query's ranges pairwise (quadratic in their number), so
 * thousands of projects go in slices of this many.
 */
const RANGES_PER_QUERY = 128;

/**
 * Messages from others above each project's marker (`[projectId, lastReadSeq]`), by project; a
 * project with none is absent. One cursor per slice of projects walks the `[projectId+seq]` index,
 * jumping from one project's unread range to the next, so the cost is the unread messages plus one
 * jump per project, not a query per project.
 */
async function countUnreadAbove(
  db: AppDatabase,
  userId: string,
  markers: readonly (readonly [projectId: string, lastReadSeq: number])[],
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const ranges = markers.map(([projectId, seq]): [[string, number], [string, number]] => [
    [projectId, seq + 1],
    [projectId, MAX_SEQ],
  ]);
  const slices = [];
  for (let start = 0; start < ranges.length; start += RANGES_PER_QUERY)
    slices.push(ranges.slice(start, start + RANGES_PER_QUERY));
  await Promise.all(
    slices.map((slice) =>
      db.chatMessages
        .where('[projectId+seq]')
        .inAnyRange(slice, { includeUppers: true })
        .each((message) => {
          if (countsAsUnread(message, userId))
            counts.set(message.projectId, (counts.get(message.projectId) ?? 0) + 1);
        }),
    ),
  );
  return counts;
}

/** Messages from others above the member's read marker. */
export async function countUnread(
  db: AppDatabase,
  projectId: string,
  userId: string,
): Promise<number> {
  const marker = await readMarkerOf(db, projectId, userId);
  const counts = await countUnreadAbove(db, userId, [[projectId, marker]]);
  return counts.get(projectId) ?? 0;
}

export function useUnreadCount(
  db: AppDatabase,
  projectId: string,
  userId: string,
): number | undefined {
  return useLiveQuery(() => countUnread(db, projectId, userId), [db, projectId, userId]);
}

/**
 * Unread messages of every project of the workspace, by project id (absent: none), for the lists
 * where a member picks a project. Reads only the projects that have messages on the device (one
 * step per project on a unique-key cursor), the member's markers of those in one bulk read, then
 * counts above each marker as `countUnread` does.
 */
export async function countUnreadByProject(
  db: AppDatabase,
  workspaceId: string,
  userId: string,
): Promise<Map<string, number>> {
  const keys = await db.chatMessages
    .where('[workspaceId+projectId]')
    .between(...workspaceKeyRange(workspaceId))
    .uniqueKeys();
  const projectIds = keys.map((key) => (key as unknown as [string, string])[1]);
  const markers = await db.chatReads.bulkGet(
    projectIds.map((projectId) => chatReadId(projectId, userId)),
  );
  return countUnreadAbove(
    db,
    userId,
    projectIds.map((projectId, index) => [projectId, markerSeq(markers[index])]),
  );
}

export function useUnreadCounts(
  db: AppDatabase,
  workspaceId: string,
  userId: string,
): ReadonlyMap<string, number> | undefined {
  return useLiveQuery(
    () => countUnreadByProject(db, workspaceId, userId),
    [db, workspaceId, userId],
  );
}

/** Moves the member's marker up to `seq` (never back); resolves whether anything was queued. */
export async function markChatRead(
  ctx: LocalWriteContext,
  target: { workspaceId: string; projectId: string; seq: number },
): Promise<boolean> {
  const id = chatReadId(target.projectId, ctx.userId);
  const marker = await ctx.db.chatReads.get(id);
  if (marker && !marker._deleted) {
    if (marker.lastReadSeq >= target.seq) return false;
    return chatReadWrites.update(ctx, id, { lastReadSeq: target.seq });
  }
  if (target.seq <= 0) return false;
  await chatReadWrites.create(ctx, {
    id,
    workspaceId: target.workspaceId,
    projectId: target.projectId,
    lastReadSeq: target.seq,
  });
  return true;
}

/** Adds the member's reaction, or takes it back if they already gave that one. */
export async function toggleReaction(
  ctx: LocalWriteContext,
  message: Pick<LocalChatMessage, 'id' | 'workspaceId' | 'projectId'>,
  emoji: LocalChatReaction['emoji'],
): Promise<'added' | 'removed'> {
  const mine = await ctx.db.chatReactions
    .where('messageId')
    .equals(message.id)
    .filter((row) => !row._deleted && row.createdBy === ctx.userId && row.emoji === emoji)
    .first();
  if (mine) {
    await chatReactionWrites.delete(ctx, mine.id);
    return 'removed';
  }
  await chatReactionWrites.create(ctx, {
    workspaceId: message.workspaceId,
    messageId: message.id,
    projectId: message.projectId,
    emoji,
  });
  return 'added';
}
