/**
 * The Cmd/Ctrl+K palette: one field and the results as they are typed, grouped by kind, from the
 * device's index of the workspace on screen (src/search), so it answers offline like every
 * screen. Keyboard only: the field keeps focus while the arrows move through the results
 * (react-aria's Autocomplete: aria-activedescendant on the field), Enter opens one, Escape closes
 * and focus returns to where it was; an opened result's page gets focus on its h1.
 *
 * Loaded on the first Ctrl+K or press of Search (search-launcher.tsx), with MiniSearch, so the
 * app's first chunk does not grow. A card from `sm` up, the whole screen on phones.
 */
import { useNavigate } from '@tanstack/react-router';
import {
  CheckSquare,
  Clock,
  File,
  Flag,
  FolderKanban,
  MessageSquare,
  Receipt,
  Search,
  StickyNote,
  Users,
  X,
  type LucideIcon,
} from 'lucide-react';
import { useMemo, useRef, useState, useSyncExternalStore } from 'react';
import {
  Autocomplete,
  Button,
  Collection,
  Dialog,
  Header,
  Heading,
  Input,
  ListBox,
  ListBoxItem,
  ListBoxSection,
  Modal,
  ModalOverlay,
  TextField,
} from 'react-aria-components';
import type { SyncedEntityName } from '#contract/synced-entities.ts';
import { openSearchIndex, type LiveSearchIndex } from '../../search/live-search-index.ts';

// The launcher stops the live index through this chunk, so it never imports the index itself.
export { closeSearchIndex } from '../../search/live-search-index.ts';
import { MAX_QUERY_CHARS, type SearchAnswer } from '../../search/search-index.ts';
import { sourceOf, type SearchDoc, type SearchRoute } from '../../search/search-sources.ts';
import { Spinner } from '../../ui/spinner.tsx';
import { useSync } from '../workspace/sync-context.tsx';
import { useWorkspaceState } from '../workspace/use-workspace.ts';
import { focusPageHeading } from '../../ui/focus-page-heading.ts';
import { HighlightText, snippetAround } from './highlight-text.tsx';
import { readRecentResults, rememberRecentResult } from './recent-results.ts';

const icons: Partial<Record<SyncedEntityName, LucideIcon>> = {
  client: Users,
  project: FolderKanban,
  task: CheckSquare,
  milestone: Flag,
  note: StickyNote,
  'client-note': StickyNote,
  file: File,
  'chat-message': MessageSquare,
  invoice: Receipt,
};

export interface SearchPaletteProps {
  onClose: () => void;
}

/** The dialog; its content waits for the signed-in user's database and workspace. */
export default function SearchPalette({ onClose }: SearchPaletteProps) {
  // What had focus before the palette: react-aria returns focus there when it closes.
  const opener = useRef(document.activeElement);
  return (
    <ModalOverlay
      isOpen
      isDismissable
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      className="fixed inset-0 z-50 flex items-start justify-center bg-black/50 sm:p-4 sm:pt-[12vh]"
    >
      <Modal className="flex h-dvh w-full flex-col overflow-hidden border-border bg-surface text-fg shadow-xl sm:h-auto sm:max-h-[76vh] sm:max-w-2xl sm:rounded-2xl sm:border">
        <Dialog aria-label="Search" className="flex min-h-0 flex-1 flex-col outline-none">
          <Heading slot="title" className="sr-only">
            Search
          </Heading>
          <PaletteBody onClose={onClose} opener={opener.current} />
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

function PaletteBody({ onClose, opener }: { onClose: () => void; opener: Element | null }) {
  const { handle } = useSync();
  const workspace = useWorkspaceState();
  const workspaceId = workspace.status === 'ready' ? workspace.workspace.id : null;
  // One Palette whatever the state, so what was typed while the workspace opened stays.
  const live = useMemo(
    () => (workspaceId ? openSearchIndex(handle.db, workspaceId) : null),
    [handle.db, workspaceId],
  );
  return (
    <Palette
      live={live}
      onClose={onClose}
      opener={opener}
      waiting={workspace.status === 'ready' ? null : workspace.status}
    />
  );
}

interface Row {
  id: string;
  doc: SearchDoc;
  terms: ReadonlySet<string>;
}

interface Section {
  id: string;
  title: string;
  rows: Row[];
}

const noTerms: ReadonlySet<string> = new Set();
const subscribeNowhere = () => () => {};

function Palette({
  live,
  onClose,
  opener,
  waiting,
}: {
  live: LiveSearchIndex | null;
  onClose: () => void;
  opener: Element | null;
  waiting: 'loading' | 'missing' | null;
}) {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const version = useSyncExternalStore(
    live?.subscribe ?? subscribeNowhere,
    () => live?.getVersion() ?? 0,
  );
  const status = live ? live.getStatus() : 'loading';

  const answer: SearchAnswer | null = useMemo(
    () => (live && query.trim() !== '' ? live.index.search(query, { perGroup: 6 }) : null),
    // `version` is the index's content: a write while the palette is open re-runs the query.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [live, query, version],
  );
  const sections: Section[] = useMemo(() => {
    if (!live) return [];
    if (!answer) {
      const recent = readRecentResults(live.workspaceId)
        .map((id) => live.index.find(id))
        .filter((doc): doc is SearchDoc => doc !== undefined)
        .map((doc) => ({ id: doc.id, doc, terms: noTerms }));
      return recent.length > 0 ? [{ id: 'recent', title: 'Recent', rows: recent }] : [];
    }
    return answer.groups.map((group) => ({
      id: group.group,
      title: group.group,
      rows: group.hits.map((hit) => ({ id: hit.doc.id, doc: hit.doc, terms: new Set(hit.terms) })),
    }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [live, answer, version]);

  const open = (id: string) => {
    const doc = live?.index.find(id);
    const route = doc ? sourceOf(doc.entity)?.route(doc, live!.index.find) : null;
    if (!live || !doc || !route) return;
    rememberRecentResult(live.workspaceId, doc.id);
    onClose();
    void goTo(navigate, route).then(() => focusPageHeading(opener));
  };

  const trimmed = query.trim();
  return (
    <Autocomplete inputValue={query} onInputChange={setQuery}>
      <div className="flex items-center gap-2 border-b border-border px-3 sm:px-4">
        <Search aria-hidden="true" size={18} className="shrink-0 text-fg-muted" />
        <TextField aria-label="Search this workspace" className="min-w-0 flex-1" autoFocus>
          <Input
            placeholder="Search clients, projects, tasks, notes, files…"
            className="min-h-14 w-full min-w-0 bg-transparent text-base text-fg outline-none placeholder:text-fg-muted"
          />
        </TextField>
        <Button
          aria-label="Close search"
          onPress={onClose}
          className="grid size-10 shrink-0 cursor-pointer place-items-center rounded-md text-fg-muted outline-none hover:text-fg data-focus-visible:ring-2 data-focus-visible:ring-ring"
        >
          <X aria-hidden="true" size={18} />
        </Button>
      </div>
      <div role="status" className="px-4 empty:hidden">
        {answer?.capped ? (
          <p className="pt-3 text-sm text-fg-muted">
            That is a long search: only its first {MAX_QUERY_CHARS} characters are searched.
          </p>
        ) : null}
        {status === 'loading' && trimmed !== '' ? (
          <p className="flex items-center gap-2 pt-3 text-sm text-fg-muted">
            <Spinner size="small" /> Indexing this workspace… results so far:
          </p>
        ) : null}
        {status === 'failed' ? (
          <p className="pt-3 text-sm text-danger">
            Search could not read this device's data. Reload the page to try again.
          </p>
        ) : null}
        {answer && answer.total > 0 ? (
          <p className="sr-only">
            {answer.total === 1 ? '1 result' : `${answer.total.toLocaleString()} results`}
          </p>
        ) : null}
      </div>
      <ListBox
        aria-label={trimmed === '' ? 'Recent' : 'Results'}
        items={sections}
        onAction={(key) => open(String(key))}
        className="min-h-0 flex-1 overflow-y-auto p-2 outline-none"
        renderEmptyState={() => (
          <EmptyState query={trimmed} waiting={waiting} loading={status === 'loading'} />
        )}
      >
        {(section) => (
          <ListBoxSection id={section.id} className="mb-2">
            <Header className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wide text-fg-muted uppercase">
              {section.title}
            </Header>
            <Collection items={section.rows}>
              {(row) => <ResultItem row={row} live={live!} recent={section.id === 'recent'} />}
            </Collection>
          </ListBoxSection>
        )}
      </ListBox>
      <p className="hidden border-t border-border px-4 py-2 text-xs text-fg-muted sm:block">
        <kbd className="font-sans">↑</kbd> <kbd className="font-sans">↓</kbd> to move,{' '}
        <kbd className="font-sans">Enter</kbd> to open, <kbd className="font-sans">Esc</kbd> to
        close. Searches what is on this device, online or not.
      </p>
    </Autocomplete>
  );
}

function ResultItem({ row, live, recent }: { row: Row; live: LiveSearchIndex; recent: boolean }) {
  const { doc, terms } = row;
  const source = sourceOf(doc.entity);
  const Icon = recent ? Clock : (icons[doc.entity] ?? File);
  const parent = doc.parent ? live.index.find(doc.parent) : undefined;
  const subtitle = [source?.noun, parent?.title].filter(Boolean).join(' · ');
  const snippet = terms.size > 0 ? snippetAround(doc.text, terms) : null;
  const titleMatched = snippet === null || snippetAround(doc.title, terms) !== null;
  return (
    <ListBoxItem
      id={row.id}
      textValue={`${doc.title}, ${subtitle}`}
      className="flex min-h-12 cursor-pointer items-start gap-3 rounded-lg px-3 py-2 text-sm outline-none data-focused:bg-surface-muted"
    >
      <Icon aria-hidden="true" size={18} className="mt-0.5 shrink-0 text-fg-muted" />
      <span className="flex min-w-0 flex-col">
        <span className="truncate font-medium text-fg">
          <HighlightText text={doc.title || 'Untitled'} terms={terms} />
        </span>
        <span className="truncate text-xs text-fg-muted">{subtitle}</span>
        {snippet && !titleMatched ? (
          <span className="line-clamp-2 text-xs break-words text-fg-muted">
            <HighlightText text={snippet} terms={terms} />
          </span>
        ) : null}
      </span>
    </ListBoxItem>
  );
}

function EmptyState({
  query,
  waiting,
  loading,
}: {
  query: string;
  waiting: 'loading' | 'missing' | null;
  loading: boolean;
}) {
  let text: string;
  if (waiting === 'missing') text = "This workspace isn't on this device yet: nothing to search.";
  else if (query === '')
    text =
      'Type to search clients, projects, tasks, milestones, notes, file names and chat messages.';
  else if (waiting === 'loading' || loading) text = 'Indexing this workspace…';
  else text = `No results for “${query.length > 60 ? `${query.slice(0, 60)}…` : query}”.`;
  return (
    <p className="px-3 py-6 text-center text-sm [overflow-wrap:anywhere] text-fg-muted">{text}</p>
  );
}

type Navigate = ReturnType<typeof useNavigate>;

/** The route as the router's typed navigate call (one call per page shape). */
function goTo(navigate: Navigate, route: SearchRoute): Promise<void> {
  switch (route.to) {
    case '/clients/$id':
      return navigate({ to: route.to, params: route.params });
    case '/invoices/$invoiceId':
      return navigate({ to: route.to, params: route.params });
    case '/projects/$projectId/$clientId':
      return navigate({ to: route.to, params: route.params, search: route.search });
  }
}
