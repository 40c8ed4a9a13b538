/**
 * The clients as a virtualized list: only the rows in view (plus a few) are in the DOM, so 10,000
 * clients cost the same as 20. Each row has a checkbox for multi-select and links to the client.
 * The page itself scrolls (window virtualizer), so the header and phones' bottom bar behave.
 */
import { Link } from '@tanstack/react-router';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { LocalClient } from '../../db/app-database.ts';
import { clientStatusBadgeClass, clientStatusLabels } from './client-labels.ts';

export interface ClientListProps {
  clients: readonly LocalClient[];
  selected: ReadonlySet<string>;
  onSelectionChange: (next: ReadonlySet<string>) => void;
  /**
   * A row to scroll into the drawn range once it is on the list (each new object once): focus
   * handed to a row the virtualizer has not drawn would otherwise be lost.
   */
  reveal?: { id: string } | null;
}

const ROW_HEIGHT = 68;

export function ClientList({ clients, selected, onSelectionChange, reveal }: ClientListProps) {
  const listRef = useRef<HTMLUListElement>(null);
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    setOffset(listRef.current?.offsetTop ?? 0);
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: clients.length,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    scrollMargin: offset,
  });
  const revealed = useRef<object | null>(null);
  useEffect(() => {
    if (!reveal || revealed.current === reveal) return;
    const index = clients.findIndex((client) => client.id === reveal.id);
    if (index < 0) return;
    revealed.current = reveal;
    virtualizer.scrollToIndex(index, { align: 'auto' });
  }, [reveal, clients, virtualizer]);
  const allSelected = clients.length > 0 && clients.every((client) => selected.has(client.id));

  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onSelectionChange(next);
  };

  return (
    <div className="rounded-xl border border-border bg-surface">
      <div className="flex min-h-11 items-center gap-3 border-b border-border px-4 text-sm text-fg-muted">
        <input
          type="checkbox"
          aria-label={`Select all ${clients.length} clients shown`}
          className="size-4 accent-brand"
          checked={allSelected}
          onChange={(event) =>
            onSelectionChange(
              event.currentTarget.checked ? new Set(clients.map((client) => client.id)) : new Set(),
            )
          }
        />
        <span className="flex-1">Name</span>
        <span className="hidden w-56 md:block">Email</span>
        <span className="w-20 text-right sm:w-24">Status</span>
      </div>
      <ul
        ref={listRef}
        aria-label="Clients"
        className="relative"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {virtualizer.getVirtualItems().map((item) => {
          const client = clients[item.index];
          if (!client) return null;
          return (
            <li
              key={client.id}
              aria-setsize={clients.length}
              aria-posinset={item.index + 1}
              className="absolute inset-x-0 top-0 flex items-center gap-3 border-b border-border px-4 last:border-b-0 hover:bg-surface-muted"
              style={{
                height: item.size,
                transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)`,
              }}
            >
              <input
                type="checkbox"
                aria-label={`Select ${client.name}`}
                className="size-4 shrink-0 accent-brand"
                checked={selected.has(client.id)}
                onChange={(event) => toggle(client.id, event.currentTarget.checked)}
              />
              <Link
                to="/clients/$id"
                params={{ id: client.id }}
                // Where focus goes after an archive (archive-focus.ts).
                data-client-id={client.id}
                className="min-w-0 flex-1 rounded outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                <span className="block truncate font-medium text-fg">
                  {client.name}
                  {client.archived ? (
                    <span className="ml-2 text-xs font-normal text-fg-muted">Archived</span>
                  ) : null}
                  {client._pending > 0 ? <span className="sr-only"> (not synced yet)</span> : null}
                </span>
                <span className="block truncate text-sm text-fg-muted">
                  {[client.company, ...client.tags.map((tag) => `#${tag}`)]
                    .filter(Boolean)
                    .join(' · ') || '\u00a0'}
                </span>
              </Link>
              <span className="hidden w-56 truncate text-sm text-fg-muted md:block">
                {client.email ?? ''}
              </span>
              <span className="flex w-20 justify-end sm:w-24">
                <span className={clientStatusBadgeClass(client.status)}>
                  {clientStatusLabels[client.status]}
                </span>
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
