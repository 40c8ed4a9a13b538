/**
 * The per-user local database: one IndexedDB database per signed-in user (the name carries the
 * user id), so another user never sees or replays this one's outbox. Every schema version and its
 * upgrade lives in SCHEMA_VERSIONS and nowhere else; a change is a new entry, never an edit.
 * Upgrades never drop the outbox (b.12). Entity rows are server rows plus LocalFields.
 *
 * Entity-blind: every synced entity has one table named `entity.table`, typed from its contract
 * declaration (contract/synced-entities.ts); nothing here names an entity. A new entity (or a new
 * index) needs a new SCHEMA_VERSIONS entry written with `entityStores`, and a test checks that
 * the latest version naming each entity's table declares exactly its `entityStores`.
 */
import { Dexie, type EntityTable, type Table, type Transaction } from 'dexie';
import type * as v from 'valibot';
import {
  allEntities,
  entityNamed,
  entityOfTable,
  type SyncedEntities,
  type SyncedEntityName,
} from '#contract/synced-entities.ts';
import type { Workspace, WorkspaceMember } from '#contract/entities/workspace.ts';
import type { OutboxEntry } from './outbox-entry.ts';
import type { FileCopy, KeptProject, UploadEntry } from './upload-entry.ts';
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
  /**
   * Pending deletes of an ancestor (mutation ids) whose cascade hides this row; absent when none.
   * Any entity may be a descendant, so every row type can carry it.
   */
  _cascadeOf?: string[];
}

/** A declared entity (one member of the registry's list). */
type DeclaredEntity = SyncedEntities[number];

/** The device row of a declared entity: its contract row plus the local fields. */
export type LocalRowOf<E extends DeclaredEntity> = v.InferOutput<E['rowSchema']> & LocalFields;
/** The device row of the entity named N. */
export type LocalRow<N extends SyncedEntityName> = LocalRowOf<Extract<DeclaredEntity, { name: N }>>;

// Names the features already use for the two first entities' rows (aliases, nothing more).
export type LocalClient = LocalRow<'client'>;
export type LocalProject = LocalRow<'project'>;
export type LocalWorkspace = Workspace & { _v: number };

/** What every entity row shares, for code that handles any entity's table. */
export type SyncedRow = LocalFields & {
  id: string;
  workspaceId: string;
} & Record<string, unknown>;
export type LocalMember = WorkspaceMember & { workspaceId: string };

/** One typed table per declared entity, under its `table` name (`db.clients`, `db.projects`). */
export type EntityTables = {
  [E in DeclaredEntity as E['table']]: EntityTable<LocalRowOf<E>, 'id'>;
};

export type AppDatabase = Dexie &
  EntityTables & {
    workspaces: EntityTable<LocalWorkspace, 'id'>;
    members: Table<LocalMember, [string, string]>;
    outbox: EntityTable<OutboxEntry, 'seq'>;
    syncState: EntityTable<SyncStateRecord, 'key', SyncStateRecord>;
    syncIssues: EntityTable<SyncIssue, 'id'>;
    uploads: EntityTable<UploadEntry, 'id'>;
    fileCopies: Table<FileCopy, [string, number]>;
    keptProjects: EntityTable<KeptProject, 'projectId'>;
  };

export interface SchemaVersion {
  version: number;
  /** Dexie store declarations; tables not named keep their previous declaration. */
  stores: Record<string, string | null>;
  upgrade?: (tx: Transaction) => Promise<unknown> | undefined;
}

/**
 * The Dexie store declarations of entity tables, from their contract declarations:
 * `id, workspaceId` then the entity's own `indexes`. A later schema version is written as
 * `{ version: 2, stores: entityStores(['milestones', 'tasks']) }` (plus any other table it changes).
 */
export function entityStores(tables: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    tables.map((table) => {
      const entity = entityOfTable(table);
      if (!entity) throw new Error(`No synced entity has the table "${table}".`);
      return [table, ['id', 'workspaceId', ...entity.indexes].join(', ')];
    }),
  );
}

/**
 * Version 1 (written out: devices hold it, and it must never change). Indexes serve the screens' queries: lists by status and by client, sorted by name,
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
  {
    // Project work (milestones, board columns, tasks, notes, client notes). Written out like
    // version 1: a test checks each equals its declaration's entityStores().
    version: 2,
    stores: {
      milestones:
        'id, workspaceId, [workspaceId+projectId], [workspaceId+dueDate], [workspaceId+status]',
      kanbanColumns: 'id, workspaceId, [workspaceId+projectId]',
      tasks:
        'id, workspaceId, [workspaceId+projectId], [workspaceId+assigneeId], [workspaceId+dueDate], [columnId+position]',
      notes: 'id, workspaceId, [workspaceId+projectId]',
      clientNotes: 'id, workspaceId, [workspaceId+clientId]',
    },
  },
  {
    // Files: the synced file rows, uploads waiting on this device (their bytes as Blobs) and the
    // bytes of files kept offline.
    version: 3,
    stores: {
      files: 'id, workspaceId, [workspaceId+projectId]',
      uploads: 'id, workspaceId, [workspaceId+projectId]',
      fileCopies: '[fileId+version], fileId, workspaceId, [workspaceId+projectId]',
      keptProjects: 'projectId, workspaceId',
    },
  },
  {
    // Change requests (the change request center lists them by status and project).
    version: 4,
    stores: {
      changeRequests: 'id, workspaceId, [workspaceId+projectId], [workspaceId+status]',
    },
  },
  {
    // Calendar events (the calendar reads a workspace's events by start, a project's by link).
    version: 5,
    stores: {
      calendarEvents: 'id, workspaceId, [workspaceId+projectId], [workspaceId+start]',
    },
  },
  {
    // Project chat: messages by project in the server's order, reactions and read markers by
    // project (a chat reads all three for one project).
    version: 6,
    stores: {
      chatMessages: 'id, workspaceId, [workspaceId+projectId], [projectId+seq]',
      chatReactions: 'id, workspaceId, [workspaceId+projectId], messageId',
      chatReads: 'id, workspaceId, [workspaceId+projectId]',
    },
  },
  {
    // Invoices by status and project (the invoices list, a project's money) and by client; their
    // payments by invoice.
    version: 7,
    stores: {
      invoices: 'id, workspaceId, [workspaceId+status], [workspaceId+projectId], clientId',
      invoicePayments: 'id, workspaceId, invoiceId',
    },
  },
  {
    // The invoices list's newest first: its first screen reads a page by this index before the
    // whole workspace's invoices (src/data/invoices.ts, listNewestInvoiceViews).
    version: 8,
    stores: entityStores(['invoices']),
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

/** The name of a declared synced entity (`client`, `project`...). */
export type SyncedEntity = SyncedEntityName;

/** Bounds of a compound index restricted to one value of its first part (`[columnId+position]`). */
export function prefixKeyRange(first: string): [[string, unknown], [string, unknown]] {
  return [
    [first, Dexie.minKey],
    [first, Dexie.maxKey],
  ];
}

/** Bounds of a `[workspaceId+x]` compound index restricted to one workspace. */
export function workspaceKeyRange(workspaceId: string): [[string, unknown], [string, unknown]] {
  return [
    [workspaceId, Dexie.minKey],
    [workspaceId, Dexie.maxKey],
  ];
}

/** An entity's table, typed by what every entity row shares. */
export function syncedTable(db: AppDatabase, entity: SyncedEntity): Table<SyncedRow, string> {
  return db.table(entityNamed(entity).table);
}

/** Every entity's table, in parent order: the transaction scope of code that touches any row. */
export function entityTables(db: AppDatabase): Table<SyncedRow, string>[] {
  return allEntities().map((entity) => db.table(entity.table));
}
