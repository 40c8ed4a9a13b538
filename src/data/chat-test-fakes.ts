/** Chat rows as a pull leaves them on the device, for the tests that count and show them. */
import { chatReadId } from '#contract/entities/chat.ts';
import type { AppDatabase, LocalProject } from '../db/app-database.ts';
import { createClient } from './client-mutations.ts';
import { createProject } from './project-mutations.ts';

const AT = '2026-01-01T00:00:00.000Z';
let nextMessage = 0;

/** A chat message the server has ordered (`seq`); deleted ones have their text cleared. */
export function chatMessageRow(
  projectId: string,
  seq: number,
  row: { workspaceId: string; createdBy: string; deleted?: boolean; _deleted?: boolean },
) {
  nextMessage += 1;
  return {
    id: `0190a000-0000-7000-8000-${String(nextMessage).padStart(12, '0')}`,
    workspaceId: row.workspaceId,
    projectId,
    text: row.deleted ? '' : `Message ${seq}`,
    mentions: [],
    replyToId: null,
    attachmentFileIds: [],
    deleted: row.deleted ?? false,
    seq,
    editedAt: null,
    authorKind: 'member' as const,
    authorName: '',
    createdAt: AT,
    createdBy: row.createdBy,
    updatedAt: AT,
    updatedBy: row.createdBy,
    version: seq,
    _v: seq,
    _pending: 0,
    _deleted: row._deleted ?? false,
    _base: {},
  };
}

/** A member's read marker of a project's chat. */
export function chatReadRow(
  workspaceId: string,
  projectId: string,
  userId: string,
  lastReadSeq: number,
) {
  return {
    id: chatReadId(projectId, userId),
    workspaceId,
    projectId,
    lastReadSeq,
    createdAt: AT,
    createdBy: userId,
    updatedAt: AT,
    updatedBy: userId,
    version: 1,
    _v: 1,
    _pending: 0,
    _deleted: false,
    _base: {},
  };
}

/** A project "Website" of client Acme, whose workspace has Ada Lovelace (`userId`) and Bob Stone. */
export async function seedChatProject(
  db: AppDatabase,
  people: { workspaceId: string; userId: string; bobId: string },
): Promise<LocalProject> {
  const ctx = { db, userId: people.userId };
  const client = await createClient(ctx, { workspaceId: people.workspaceId, name: 'Acme' });
  const member = (id: string, first: string, last: string, role: 'owner' | 'member') => ({
    workspaceId: people.workspaceId,
    id,
    email: `${first.toLowerCase()}@example.com`,
    firstName: first,
    lastName: last,
    profilePictureUrl: null,
    role,
    joinedAt: AT,
  });
  await db.members.bulkPut([
    member(people.userId, 'Ada', 'Lovelace', 'owner'),
    member(people.bobId, 'Bob', 'Stone', 'member'),
  ]);
  return createProject(ctx, {
    workspaceId: people.workspaceId,
    clientId: client.id,
    name: 'Website',
  });
}
