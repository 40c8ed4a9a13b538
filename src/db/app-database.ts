/**
 * The per-user local database: one IndexedDB database per signed-in user (the name carries the
 * user id), so another user never sees or replays this one's outbox. Every schema version and its
 * upgrade lives in SCHEMA_VERSIONS and nowhere else; a change is a new entry, never an edit.
 * Upgrades never drop the outbox (b.12). Entity rows are server rows plus LocalFields.
 */
import { Dexie, type EntityTable, type Table, type Transaction } from 'dexie';
import type { Client } from '#contract/entities/client.ts';
import type { Project } from '#contract/entities/project.ts';
import type { Workspace, WorkspaceMember } from '#contract/entities/workspace.ts';
import type { OutboxEntry } from './outbox-entry.ts';
import type { SyncIssue } from './sync-issue.ts';
import type { SyncStateRecord } from './sync-state.ts';

/** Local fields carried by every synced entity row. */
export interface LocalFields {
  /** Server version (change-log seq) of the server data in this row; 0 until the server has it. */
  _v: number;
  /** Outbox entries touching this row: its own, plus a pending cascade delete of its parent. */
  _pending: number;
  /** True while a delete of this row is pending: hidden from screens, restored on rejection. */
  _deleted: boolean;
  /**
   * Latest known server values of the fields that pending patches overlay. A pull updates these
   * instead of the visible field; removing the last patch of a field restores it from here.
   */
  _base: Record<string, unknown>;
}

export type LocalClient = Client & LocalFields;
export type LocalProject = Project &
  LocalFields & {
    /** Pending client deletes (mutation ids) that hide this project with their cascade. */
    _cascadeOf?: string[];
  };
export type LocalWorkspace = Workspace & { _v: number };

/** What client and project rows share, for code that handles either table. */
export type SyncedRow = LocalFields & {
  id: string;
  workspaceId: string;
  name: string;
  _cascadeOf?: string[];
} & Record<string, unknown>;
export type LocalMember = WorkspaceMember & { workspaceId: string };

export type AppDatabase = Dexie & {
  workspaces: EntityTable<LocalWorkspace, 'id'>;
  members: Table<LocalMember, [string, string]>;
  clients: EntityTable<LocalClient, 'id'>;
  projects: EntityTable<LocalProject, 'id'>;
  outbox: EntityTable<OutboxEntry, 'seq'>;
  syncState: EntityTable<SyncStateRecord, 'key', SyncStateRecord>;
  syncIssues: EntityTable<SyncIssue, 'id'>;
};

export interface SchemaVersion {
  version: number;
  /** Dexie store declarations; tables not named keep their previous declaration. */
  stores: Record<string, string | null>;
  upgrade?: (tx: Transaction) => Promise<unknown> | undefined;
}

/**
 * Version 1. Indexes serve the screens' queries: lists by status and by client, sorted by name,
 * due soon (rows without a due date are left out of that index: IndexedDB skips null keys), recent
 * activity. Booleans are not indexable in IndexedDB, so archived and _deleted are filtered.
 */
export const SCHEMA_VERSIONS: readonly SchemaVersion[] = [
  {
    version: 1,
    stores: {
      workspaces: 'id',
      members: '[workspaceId+id], workspaceId',
      clients: 'id, workspaceId, [workspaceId+status], [workspaceId+name], [workspaceId+updatedAt]',
      projects:
        'id, workspaceId, [workspaceId+status], [workspaceId+clientId], [workspaceId+name], [workspaceId+dueDate], [workspaceId+updatedAt]',
      outbox: '++seq, &mutationId, [entity+entityId], status, workspaceId, nextAttemptAt',
      syncState: 'key',
      syncIssues: 'id, mutationId, [entity+entityId], workspaceId, createdAt',
    },
  },
];

export const CURRENT_SCHEMA_VERSION = SCHEMA_VERSIONS.at(-1)?.version ?? 0;

const DATABASE_PREFIX = 'satchel-';
const USER_ID_PATTERN = /^[\w-]{1,64}$/;

export function databaseNameFor(userId: string): string {
  if (!USER_ID_PATTERN.test(userId)) throw new Error('A database needs a plain user id.');
  return `${DATABASE_PREFIX}${userId}`;
}

export interface AppDatabaseOptions {
  /** Override of the schema history; tests use it to prove an upgrade keeps the outbox. */
  versions?: readonly SchemaVersion[];
  /** Name override: tests open a fresh database per test. */
  name?: string;
  /**
   * Another tab opened a newer schema: this connection is closed so the upgrade is not blocked;
   * the app should say "App updated in another tab — reload".
   */
  onVersionChange?: () => void;
}

export function createAppDatabase(userId: string, options: AppDatabaseOptions = {}): AppDatabase {
  const db = new Dexie(options.name ?? databaseNameFor(userId)) as AppDatabase;
  for (const step of options.versions ?? SCHEMA_VERSIONS) {
    const version = db.version(step.version).stores(step.stores);
    if (step.upgrade) version.upgrade(step.upgrade);
  }
  db.on('versionchange', () => {
    db.close();
    options.onVersionChange?.();
    return false;
  });
  return db;
}

export type SyncedEntity = 'client' | 'project';

/** Bounds of a `[workspaceId+x]` compound index restricted to one workspace. */
export function workspaceKeyRange(workspaceId: string): [[string, unknown], [string, unknown]] {
  return [
    [workspaceId, Dexie.minKey],
    [workspaceId, Dexie.maxKey],
  ];
}

/** The clients or projects table, typed by what both share. */
export function syncedTable(db: AppDatabase, entity: SyncedEntity): Table<SyncedRow, string> {
  return (entity === 'client' ? db.clients : db.projects) as unknown as Table<SyncedRow, string>;
}
