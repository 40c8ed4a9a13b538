/**
 * What Cmd/Ctrl+K searches: one declaration per searchable entity, and nothing else names an
 * entity. A source says which device table it reads (the entity's own, from its contract
 * declaration), which fields are its title and its searchable text, which row is its parent (for
 * the subtitle, "Logo refresh · Aurora Labs", and the route), which rows never show, and where a
 * hit opens. A new searchable entity is one more entry in `searchSources`.
 *
 * Routes and subtitles are resolved when a hit is shown or opened, from the parent's document in
 * the same index, so renaming a project updates its tasks' subtitles without re-indexing them.
 */
import { invoiceNumberText } from '#contract/entities/invoice.ts';
import type { SyncedEntityName } from '#contract/synced-entities.ts';
import type { LocalRow } from '../db/app-database.ts';

/** Where a hit opens: one of the app's item pages (the project workspace opens on a tab). */
export type SearchRoute =
  | { to: '/clients/$id'; params: { id: string } }
  | { to: '/invoices/$invoiceId'; params: { invoiceId: string } }
  | {
      to: '/projects/$projectId/$clientId';
      params: { projectId: string; clientId: string };
      search: { tab?: 'tasks' | 'milestones' | 'notes' | 'chat' | 'files' };
    };

/** One searchable thing, as the index holds it (plain data: no row, no function). */
export interface SearchDoc {
  /** `${entity}:${rowId}`: unique across sources (MiniSearch's id). */
  id: string;
  entity: SyncedEntityName;
  rowId: string;
  title: string;
  /** Everything else searched (description, body, labels...), capped at MAX_TEXT_CHARS. */
  text: string;
  /** The parent's document id (`project:<id>`), or null. */
  parent: string | null;
}

/** Reads another document of the index by id (a hit's parent, its parent's parent). */
export type FindDoc = (id: string) => SearchDoc | undefined;

export interface SearchSource {
  entity: SyncedEntityName;
  /** The results group the hits appear in ("Tasks"); sources may share one ("Notes"). */
  group: string;
  /** One item, for screen readers and the subtitle ("Task"). */
  noun: string;
  toDoc(row: Record<string, unknown>): SearchDoc | null;
  route(doc: SearchDoc, find: FindDoc): SearchRoute | null;
}

/**
 * Searched text per document is capped: a 100,000-character note would otherwise cost the index
 * (memory and build time) more than a thousand task titles, for matches deep in a body that the
 * result could not show anyway. The start of a body is what people remember and search for.
 */
export const MAX_TEXT_CHARS = 2_000;

interface SourceDeclaration<N extends SyncedEntityName> {
  entity: N;
  group: string;
  noun: string;
  title: (row: LocalRow<N>) => string;
  text?: (row: LocalRow<N>) => readonly (string | null | undefined)[];
  /** The parent's entity and id ("project" and the task's projectId). */
  parent?: (row: LocalRow<N>) => { entity: SyncedEntityName; id: string } | null;
  /** Rows that never show besides pending deletes (a deleted chat message keeps its row). */
  hidden?: (row: LocalRow<N>) => boolean;
  route: (doc: SearchDoc, find: FindDoc) => SearchRoute | null;
}

export function docId(entity: SyncedEntityName, rowId: string): string {
  return `${entity}:${rowId}`;
}

/** A row hidden from every screen: a pending delete of it or of an ancestor. */
function isHiddenRow(row: Record<string, unknown>): boolean {
  const cascade = row._cascadeOf;
  return row._deleted === true || (Array.isArray(cascade) && cascade.length > 0);
}

function defineSearchSource<N extends SyncedEntityName>(
  declaration: SourceDeclaration<N>,
): SearchSource {
  return {
    entity: declaration.entity,
    group: declaration.group,
    noun: declaration.noun,
    route: declaration.route,
    toDoc(untyped) {
      // The table is the entity's own, so its rows are that entity's rows.
      const row = untyped as unknown as LocalRow<N>;
      if (isHiddenRow(untyped)) return null;
      try {
        if (declaration.hidden?.(row)) return null;
        const parent = declaration.parent?.(row) ?? null;
        const text = (declaration.text?.(row) ?? []).filter(Boolean).join('\n');
        const rowId = untyped.id as string;
        return {
          id: docId(declaration.entity, rowId),
          entity: declaration.entity,
          rowId,
          title: String(declaration.title(row)).slice(0, 300),
          text: text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text,
          parent: parent ? docId(parent.entity, parent.id) : null,
        };
      } catch {
        // A row of an older or unexpected shape (a field missing) is left out of search rather
        // than stopping the index of its whole table.
        return null;
      }
    },
  };
}

/** A project's page (its client is the project document's parent), on a tab. */
function projectPage(
  projectDocId: string | null,
  find: FindDoc,
  tab?: 'tasks' | 'milestones' | 'notes' | 'chat' | 'files',
): SearchRoute | null {
  const project = projectDocId ? find(projectDocId) : undefined;
  const client = project?.parent ? find(project.parent) : undefined;
  if (!project || !client) return null;
  return {
    to: '/projects/$projectId/$clientId',
    params: { projectId: project.rowId, clientId: client.rowId },
    search: tab ? { tab } : {},
  };
}

const ofProject = (row: { projectId: string }) => ({
  entity: 'project' as const,
  id: row.projectId,
});

/** The searchable entities, in the order groups are listed when their best hits tie. */
export const searchSources: readonly SearchSource[] = [
  defineSearchSource({
    entity: 'client',
    group: 'Clients',
    noun: 'Client',
    title: (row) => row.name,
    text: (row) => [row.company, row.email, row.tags.join(' ')],
    route: (doc) => ({ to: '/clients/$id', params: { id: doc.rowId } }),
  }),
  defineSearchSource({
    entity: 'project',
    group: 'Projects',
    noun: 'Project',
    title: (row) => row.name,
    text: (row) => [row.description],
    parent: (row) => ({ entity: 'client', id: row.clientId }),
    route: (doc, find) => projectPage(doc.id, find),
  }),
  defineSearchSource({
    entity: 'task',
    group: 'Tasks',
    noun: 'Task',
    title: (row) => row.title,
    text: (row) => [row.labels.join(' '), row.description],
    parent: ofProject,
    route: (doc, find) => projectPage(doc.parent, find, 'tasks'),
  }),
  defineSearchSource({
    entity: 'milestone',
    group: 'Milestones',
    noun: 'Milestone',
    title: (row) => row.title,
    text: (row) => [row.description],
    parent: ofProject,
    route: (doc, find) => projectPage(doc.parent, find, 'milestones'),
  }),
  defineSearchSource({
    entity: 'note',
    group: 'Notes',
    noun: 'Note',
    title: (row) => row.title,
    text: (row) => [row.body],
    parent: ofProject,
    route: (doc, find) => projectPage(doc.parent, find, 'notes'),
  }),
  defineSearchSource({
    entity: 'client-note',
    group: 'Notes',
    noun: 'Client note',
    title: (row) => row.title,
    text: (row) => [row.body],
    parent: (row) => ({ entity: 'client', id: row.clientId }),
    route: (doc, find) => {
      const client = doc.parent ? find(doc.parent) : undefined;
      return client ? { to: '/clients/$id', params: { id: client.rowId } } : null;
    },
  }),
  defineSearchSource({
    entity: 'file',
    group: 'Files',
    noun: 'File',
    title: (row) => row.name,
    text: (row) => [row.folder],
    parent: ofProject,
    route: (doc, find) => projectPage(doc.parent, find, 'files'),
  }),
  defineSearchSource({
    entity: 'chat-message',
    group: 'Chat messages',
    noun: 'Message',
    // The message is its own title (its first line, shortened); the whole text is searched.
    title: (row) => (row.text.split('\n', 1)[0] ?? '').slice(0, 140),
    text: (row) => [row.text, row.authorName],
    hidden: (row) => row.deleted,
    parent: ofProject,
    route: (doc, find) => projectPage(doc.parent, find, 'chat'),
  }),
  defineSearchSource({
    entity: 'invoice',
    group: 'Invoices',
    noun: 'Invoice',
    // A sent invoice leads with its number as shown everywhere ("INV-0042"); a draft has none.
    title: (row) =>
      row.number === null ? row.title : `${invoiceNumberText(row.number)} · ${row.title}`,
    text: (row) => [
      row.number === null ? null : String(row.number),
      row.notes,
      row.lines.map((line) => line.description).join('\n'),
    ],
    parent: (row) => ({ entity: 'client', id: row.clientId }),
    route: (doc) => ({ to: '/invoices/$invoiceId', params: { invoiceId: doc.rowId } }),
  }),
];

export function sourceOf(entity: SyncedEntityName): SearchSource | undefined {
  return searchSources.find((source) => source.entity === entity);
}
