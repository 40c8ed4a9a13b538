/**
 * Where focus goes after the selection bar archives clients: the bar (and its button) is gone,
 * so focus follows the list. The row after the first archived one, or the one before it, that
 * stays on the list; the first archived row itself when archived clients are shown (it stays);
 * the "New client" button (null) when nothing is left. The row may be far from the view (ticked,
 * then scrolled away from): the list draws it first (client-list.tsx, `reveal`).
 */
import type { LocalClient } from '../../db/app-database.ts';

export const NEW_CLIENT_BUTTON = '[data-new-client]';

/** The selector of a client row's link (rows carry their id, see client-list.tsx). */
export function clientLinkSelector(id: string): string {
  return `a[data-client-id="${id}"]`;
}

export function rowAfterArchive(
  rows: readonly Pick<LocalClient, 'id'>[],
  archivedIds: ReadonlySet<string>,
  showsArchived: boolean,
): string | null {
  const first = rows.findIndex((row) => archivedIds.has(row.id));
  const firstRow = rows[first];
  if (!firstRow) return null;
  if (showsArchived) return firstRow.id;
  const stays = (row: Pick<LocalClient, 'id'>) => !archivedIds.has(row.id);
  const next = rows.slice(first + 1).find(stays) ?? rows.slice(0, first).reverse().find(stays);
  return next?.id ?? null;
}
