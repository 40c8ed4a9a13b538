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

/** How many messages a chat shows first, and how many more each step through history adds. */
export const CHAT_PAGE = 50;
/** The most messages a chat keeps on the page: past it, a step drops as many at the other end. */
export const CHAT_WINDOW_MAX = 250;

/**
 * Which stretch of the project's messages (in the order above) a chat shows. A range is tied to
 * seqs, not positions, so messages arriving while the reader is up in history do not shift it.
 * - `newest`: the newest `size` ordered messages, then this device's unsent ones (the live end).
 * - `before`: the `size` newest ordered messages with seq <= `seq` (a step up kept the older end).
 * - `after`: the `size` oldest ordered messages with seq >= `seq` (a step down kept the newer end).
 */
export type ChatRange =
  | { edge: 'newest'; size: number }
  | { edge: 'before'; seq: number; size: number }
  | { edge: 'after'; seq: number; size: number };

export interface ChatWindow {
  /** The range this window was read for (the same object). */
  range: ChatRange;
  /** Oldest first: the range's ordered messages, then, when it ends at the newest, the unsent. */
  messages: LocalChatMessage[];
  /** Older messages exist on this device beyond the window. */
  hasOlder: boolean;
  /**
   * Ordered messages newer than the window, counted up to CHAT_PAGE + 1 (whether a step down
   * reaches the newest is all it decides): 0 when the window ends at the newest.
   */
  newer: number;
}

const live = (message: LocalChatMessage) => !message._deleted;

/** Live ordered messages above `seq`, counted up to NEWER_COUNTED: enough to plan a step down. */
const NEWER_COUNTED = CHAT_PAGE + 1;

async function countNewer(db: AppDatabase, projectId: string, seq: number): Promise<number> {
  return db.chatMessages
    .where('[projectId+seq]')
    .between([projectId, seq + 1], [projectId, MAX_SEQ], true, true)
    .filter(live)
    .limit(NEWER_COUNTED)
    .count();
}

async function unsentOf(db: AppDatabase, projectId: string): Promise<LocalChatMessage[]> {
  const unsent = await db.chatMessages
    .where('[projectId+seq]')
    .equals([projectId, 0])
    .filter(live)
    .toArray();
  return unsent.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/**
 * A range of a project's messages (see ChatRange; a number is the newest that many). Reads at
 * most `size` + CHAT_PAGE + 2 rows, whatever the chat's length.
 */
export async function readChatWindow(
  db: AppDatabase,
  projectId: string,
  range: ChatRange | number,
): Promise<ChatWindow> {
  if (typeof range === 'number') range = { edge: 'newest', size: range };
  const index = () => db.chatMessages.where('[projectId+seq]');
  if (range.edge === 'after') {
    const ordered = await index()
      .between([projectId, Math.max(1, range.seq)], [projectId, MAX_SEQ], true, true)
      .filter(live)
      .limit(range.size + 1)
      .toArray();
    const messages = ordered.slice(0, range.size);
    const first = messages[0]?.seq ?? range.seq;
    const older = await index()
      .between([projectId, 1], [projectId, first], true, false)
      .filter(live)
      .first();
    const atEnd = ordered.length <= range.size;
    return {
      range,
      messages: atEnd ? [...messages, ...(await unsentOf(db, projectId))] : messages,
      hasOlder: older !== undefined,
      newer: atEnd ? 0 : await countNewer(db, projectId, messages.at(-1)?.seq ?? range.seq),
    };
  }
  const upTo = range.edge === 'before' ? range.seq : MAX_SEQ;
  const ordered = await index()
    .between([projectId, 1], [projectId, upTo], true, true)
    .reverse()
    .filter(live)
    .limit(range.size + 1)
    .toArray();
  const messages = ordered.slice(0, range.size).reverse();
  const hasOlder = ordered.length > range.size;
  const newer =
    range.edge === 'newest' ? 0 : await countNewer(db, projectId, messages.at(-1)?.seq ?? upTo);
  return {
    range,
    messages: newer === 0 ? [...messages, ...(await unsentOf(db, projectId))] : messages,
    hasOlder,
    newer,
  };
}

/**
 * The range after one step through history from `window`, or null when there is nothing that
 * way. Up: a page older; over `max`, the newest messages go from the bottom. Down: a page newer;
 * over `max`, the oldest go from the top; a step that reaches the newest gives a `newest` range,
 * so the chat follows new messages again. The messages kept stay, so the view can stay on them.
 * `page` is at most CHAT_PAGE (the window counts its newer messages up to CHAT_PAGE + 1).
 */
export function nextChatRange(
  window: Pick<ChatWindow, 'range' | 'messages' | 'hasOlder' | 'newer'>,
  direction: 'older' | 'newer',
  page = CHAT_PAGE,
  max = CHAT_WINDOW_MAX,
): ChatRange | null {
  const ordered = window.messages.filter((message) => message.seq > 0);
  const keep = Math.min(ordered.length, Math.max(0, max - page));
  if (direction === 'older') {
    if (!window.hasOlder) return null;
    if (window.range.edge === 'newest' && ordered.length + page <= max)
      return { edge: 'newest', size: ordered.length + page };
    const last = ordered[keep - 1];
    if (!last) return { edge: 'newest', size: page };
    return { edge: 'before', seq: last.seq, size: keep + page };
  }
  if (window.newer <= 0) return null;
  if (window.newer <= page) return { edge: 'newest', size: keep + window.newer };
  const first = ordered[ordered.length - keep];
  if (!first) return { edge: 'newest', size: page };
  return { edge: 'after', seq: first.seq, size: keep + page };
}

/**
 * The range that shows the message `messageId` (a reply's quote jumps to it): about half a page
 * before it, then a page; null when this device does not have it.
 */
export async function chatRangeAround(
  db: AppDatabase,
  projectId: string,
  messageId: string,
  page = CHAT_PAGE,
): Promise<ChatRange | null> {
  const target = await db.chatMessages.get(messageId);
  if (!target || target._deleted || target.projectId !== projectId) return null;
  if (target.seq === 0) return { edge: 'newest', size: page };
  const before = await db.chatMessages
    .where('[projectId+seq]')
    .between([projectId, 1], [projectId, target.seq], true, false)
    .reverse()
    .filter(live)
    .limit(Math.floor(page / 2))
    .toArray();
  return { edge: 'after', seq: before.at(-1)?.seq ?? target.seq, size: page };
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, i) => item === b[i]);
  if (a && b && typeof a === 'object' && typeof b === 'object')
    return JSON.stringify(a) === JSON.stringify(b);
  return false;
}

/** Same fields, same values (arrays item by item, small objects by their JSON). */
export function sameRow(a: object, b: object): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  return (
    keys.length === Object.keys(y).length &&
    keys.every((key) => key in y && sameValue(x[key], y[key]))
  );
}

/**
 * `rows` with each one equal to the one `previous` holds under its id replaced by that one, and
 * `previous` then holding just `rows`: each read of a live query makes new objects, and a row
 * that keeps its object is not drawn again (the chat's message rows are memoized).
 */
export function shareRows<T extends { id: string }>(
  previous: Map<string, T>,
  rows: readonly T[],
): T[] {
  const shared = rows.map((row) => {
    const before = previous.get(row.id);
    return before && sameRow(before, row) ? before : row;
  });
  previous.clear();
  for (const row of shared) previous.set(row.id, row);
  return shared;
}

/** `lists` (by key) with each list equal item by item to the one `previous` holds kept as that one. */
export function shareLists<T extends object>(
  previous: Map<string, readonly T[]>,
  lists: ReadonlyMap<string, readonly T[]>,
): Map<string, readonly T[]> {
  const shared = new Map<string, readonly T[]>();
  for (const [key, list] of lists) {
    const before = previous.get(key);
    const same =
      before !== undefined &&
      before.length === list.length &&
      before.every((item, i) => sameRow(item, list[i] as T));
    shared.set(key, same ? before : list);
  }
  previous.clear();
  for (const [key, list] of shared) previous.set(key, list);
  return shared;
}

/** The window of `range`, live (see shareRows to keep unchanged messages' objects). */
export function useChatWindow(
  db: AppDatabase,
  projectId: string,
  range: ChatRange,
): ChatWindow | undefined {
  return useLiveQuery(() => readChatWindow(db, projectId, range), [db, projectId, range]);
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

/** The tab's badge shows "99+" past 99: counting further would only cost time. */
export const UNREAD_COUNT_CAP = 100;

/**
 * Messages from others above the member's read marker, counted up to UNREAD_COUNT_CAP: the walk
 * stops there, so a project with 10,000 unread messages costs what one with 100 does (every new
 * message re-counts).
 */
export async function countUnread(
  db: AppDatabase,
  projectId: string,
  userId: string,
): Promise<number> {
  const marker = await readMarkerOf(db, projectId, userId);
  let count = 0;
  await db.chatMessages
    .where('[projectId+seq]')
    .between([projectId, marker + 1], [projectId, MAX_SEQ], true, true)
    .until(() => count >= UNREAD_COUNT_CAP)
    .each((message) => {
      if (countsAsUnread(message, userId)) count += 1;
    });
  return count;
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
