/**
 * /clients: every client of the workspace from the local database, so search and filters answer
 * at once, online or offline. The list is virtualized (10,000 clients scroll like 10), supports
 * multi-select archive with undo, and "n" / "/" shortcuts for new client and search.
 */
import { useNavigate } from '@tanstack/react-router';
import { Plus, Search, Users, X } from 'lucide-react';
import { useDeferredValue, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button as AriaButton, Input, Label, SearchField } from 'react-aria-components';
import type { LocalClient } from '../../db/app-database.ts';
import { Button } from '../../ui/button.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { useKeyShortcut } from '../../ui/use-key-shortcut.ts';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { useToast } from '../../ui/use-toast.ts';
import { useSync, useWriteContext } from '../workspace/sync-context.tsx';
import { useWorkspace, WorkspaceGate } from '../workspace/workspace-gate.tsx';
import { ClientList } from './client-list.tsx';
import { clientStatusLabels } from './client-labels.ts';
import { archiveClients } from '../../data/client-mutations.ts';
import { listClientTags, useClients } from '../../data/client-queries.ts';
import type { ClientsSearch } from './clients-search.ts';
import { NewClientDialog } from './new-client-dialog.tsx';
import { clientStatuses } from '#contract/entities/client.ts';
import { useLiveQuery } from '../../db/live-query.ts';
import { showUndoNotice } from '../../ui/undo-notice.ts';
import { focusWhenReady } from '../../ui/focus-when-ready.ts';
import { clientLinkSelector, NEW_CLIENT_BUTTON, rowAfterArchive } from './archive-focus.ts';

export interface ClientsScreenProps {
  search: ClientsSearch;
  onSearchChange: (next: ClientsSearch) => void;
}

export function ClientsScreen(props: ClientsScreenProps) {
  usePageTitle('Clients');
  return (
    <div>
      <h1 className="text-3xl font-bold tracking-tight text-fg">Clients</h1>
      <WorkspaceGate>
        <ClientsContent {...props} />
      </WorkspaceGate>
    </div>
  );
}

const statusOptions = [
  { id: 'all', label: 'All statuses' },
  ...clientStatuses.map((id) => ({ id, label: clientStatusLabels[id] })),
] as const;
const sortOptions = [
  { id: 'name', label: 'Name A–Z' },
  { id: 'recent', label: 'Recently updated' },
] as const;

/** Lower-case, accents off: "Café" matches "cafe". */
function normalise(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
}

function ClientsContent({ search, onSearchChange }: ClientsScreenProps) {
  const { handle } = useSync();
  const workspace = useWorkspace();
  const ctx = useWriteContext();
  const toaster = useToast();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  /** The row focus goes to after an archive, for the list to draw first. */
  const [reveal, setReveal] = useState<{ id: string } | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState(search.q ?? '');
  const deferredQuery = useDeferredValue(query);

  const clients = useClients(handle.db, workspace.id, {
    ...(search.status ? { status: search.status } : {}),
    ...(search.tag ? { tag: search.tag } : {}),
    includeArchived: search.archived ?? false,
  });
  const tags = useLiveQuery(() => listClientTags(handle.db, workspace.id), [handle, workspace.id]);

  const shown = useMemo(() => {
    if (!clients) return undefined;
    const terms = normalise(deferredQuery).split(/\s+/).filter(Boolean);
    const rows =
      terms.length === 0
        ? clients
        : clients.filter((client) => {
            // Tags are searched as the list shows them, "#design": "#des" finds the tag (and only
            // a tag) the way "des" does, and "design" still finds it too.
            const text = normalise(
              [
                client.name,
                client.company,
                client.email,
                client.phone,
                ...client.tags.map((tag) => `#${tag}`),
              ].join(' '),
            );
            return terms.every((term) => text.includes(term));
          });
    return search.sort === 'recent'
      ? [...rows].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
      : rows;
  }, [clients, deferredQuery, search.sort]);

  useKeyShortcut('n', () => setCreating(true));
  useKeyShortcut('/', () => searchRef.current?.focus());

  const update = (patch: Partial<ClientsSearch>) => {
    const next: ClientsSearch = { ...search, ...patch };
    for (const key of Object.keys(next) as (keyof ClientsSearch)[]) {
      if (next[key] === undefined || next[key] === '' || next[key] === false) delete next[key];
    }
    onSearchChange(next);
  };
  const filtered =
    query !== '' || search.status !== undefined || search.tag !== undefined || !!search.archived;

  async function archiveSelected() {
    const ids = [...selected].filter((id) => shown?.some((client) => client.id === id));
    const count = await archiveClients(ctx, ids);
    setSelected(new Set());
    // The bar and its button go with the selection: focus follows the list instead of the page.
    const target = rowAfterArchive(shown ?? [], new Set(ids), search.archived ?? false);
    if (target) setReveal({ id: target });
    focusWhenReady(target ? clientLinkSelector(target) : NEW_CLIENT_BUTTON);
    showUndoNotice(toaster, {
      message: `Archived ${count} client${count === 1 ? '' : 's'}`,
      undo: () => void archiveClients(ctx, ids, false),
      durationMs: 8000,
    });
  }

  return (
    <>
      <div className="mt-1 flex flex-wrap items-center justify-between gap-3">
        <p className="text-fg-muted" aria-live="polite">
          {shown === undefined
            ? 'Loading…'
            : filtered
              ? `${shown.length} of ${clients?.length ?? 0} shown`
              : `${shown.length} client${shown.length === 1 ? '' : 's'}`}
        </p>
        <Button onPress={() => setCreating(true)} aria-keyshortcuts="n" data-new-client>
          <Plus aria-hidden="true" size={18} /> New client
        </Button>
      </div>

      <div className="mt-5 flex flex-col gap-3 lg:flex-row lg:items-end">
        <SearchField
          value={query}
          onChange={(value) => {
            setQuery(value);
            update({ q: value });
          }}
          className="group flex flex-1 flex-col gap-1.5"
        >
          <Label className="text-sm font-medium text-fg">Search clients</Label>
          <div className="relative">
            <Search
              aria-hidden="true"
              size={18}
              className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-fg-muted"
            />
            <Input
              ref={searchRef}
              aria-keyshortcuts="/"
              placeholder="Name, company, email or tag   ( / )"
              className="block min-h-11 w-full rounded-lg border border-border-strong bg-surface py-2 pr-11 pl-10 text-base text-fg shadow-xs outline-none placeholder:text-fg-muted data-focused:border-ring data-focused:ring-2 data-focused:ring-ring/30 sm:min-h-10 sm:text-sm [&::-webkit-search-cancel-button]:hidden"
            />
            <AriaButton className="absolute top-1/2 right-1 grid size-9 -translate-y-1/2 cursor-pointer place-items-center rounded-md text-fg-muted group-data-empty:hidden hover:bg-surface-muted">
              <X aria-hidden="true" size={16} />
            </AriaButton>
          </div>
        </SearchField>
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:flex">
          <SelectField
            label="Status"
            options={statusOptions}
            value={search.status ?? 'all'}
            onChange={(value) => update({ status: value === 'all' ? undefined : value })}
            triggerClassName="lg:w-40"
          />
          <SelectField
            label="Tag"
            options={[
              { id: '', label: 'All tags' },
              ...(tags ?? []).map((tag) => ({ id: tag, label: tag })),
            ]}
            value={search.tag ?? ''}
            onChange={(value) => update({ tag: value || undefined })}
            triggerClassName="lg:w-40"
          />
          <SelectField
            label="Sort"
            options={sortOptions}
            value={search.sort ?? 'name'}
            onChange={(value) => update({ sort: value === 'name' ? undefined : value })}
            triggerClassName="lg:w-44"
          />
        </div>
      </div>
      <label className="mt-3 inline-flex min-h-11 cursor-pointer items-center gap-2 text-sm text-fg sm:min-h-9">
        <input
          type="checkbox"
          className="size-4 accent-brand"
          checked={search.archived ?? false}
          onChange={(event) => update({ archived: event.currentTarget.checked })}
        />
        Show archived clients
      </label>

      {selected.size > 0 ? (
        <div
          role="region"
          aria-label="Selection"
          className="sticky top-16 z-20 mt-3 flex flex-wrap items-center gap-3 rounded-xl border border-border bg-brand-soft px-4 py-2"
        >
          <span className="text-sm font-medium text-fg">{selected.size} selected</span>
          <Button variant="secondary" onPress={() => void archiveSelected()}>
            Archive
          </Button>
          <Button variant="ghost" onPress={() => setSelected(new Set())}>
            Clear selection
          </Button>
        </div>
      ) : null}

      <div className="mt-4">
        {shown === undefined ? null : shown.length === 0 ? (
          filtered ? (
            <EmptyState
              title={query ? `No clients match “${query}”` : 'No clients match these filters'}
              text="Try another spelling, or clear the filters."
              action={
                <Button
                  variant="secondary"
                  onPress={() => {
                    setQuery('');
                    onSearchChange({});
                    // This button goes with the empty state; the search is where one goes on.
                    searchRef.current?.focus();
                  }}
                >
                  Clear filters
                </Button>
              }
            />
          ) : (
            <EmptyState
              title="Add your first client"
              text="Clients hold their contacts, projects and notes in one place, on this device and in the cloud. Press n to add one from anywhere on this page."
              action={
                <Button onPress={() => setCreating(true)}>
                  <Plus aria-hidden="true" size={18} /> New client
                </Button>
              }
            />
          )
        ) : (
          <ClientList
            clients={shown}
            selected={selected}
            onSelectionChange={setSelected}
            reveal={reveal}
          />
        )}
      </div>

      <NewClientDialog
        isOpen={creating}
        onClose={() => setCreating(false)}
        onCreated={(client: LocalClient) => {
          setCreating(false);
          toaster.show({
            tone: 'success',
            message: `${client.name} added.`,
            action: {
              label: 'Open',
              onAction: () => void navigate({ to: '/clients/$id', params: { id: client.id } }),
            },
            durationMs: 6000,
          });
        }}
      />
    </>
  );
}

function EmptyState({ title, text, action }: { title: string; text: string; action: ReactNode }) {
  return (
    <div className="rounded-2xl border border-dashed border-border-strong px-6 py-12 text-center">
      <Users aria-hidden="true" size={32} className="mx-auto text-fg-muted" />
      <h2 className="mt-3 text-lg font-semibold text-fg">{title}</h2>
      <p className="mx-auto mt-1 max-w-md text-fg-muted">{text}</p>
      <div className="mt-5 flex justify-center">{action}</div>
    </div>
  );
}
