/**
 * What of a device row is exported: its contract row (id, workspace, parent key, the declared
 * fields, created/updated stamps and version), in the declaration's order, without the device's
 * own bookkeeping (`_v`, `_pending`, `_deleted`, `_base`, `_cascadeOf`), which means nothing off
 * this device.
 */
import type { AnySyncedEntity } from '#contract/synced-entity.ts';

/** The CSV columns of an entity, from its declaration (so an empty table still has a header). */
export function exportColumns(entity: AnySyncedEntity): string[] {
  return [
    'id',
    'workspaceId',
    ...(entity.parent ? [entity.parent.key] : []),
    ...Object.keys(entity.fields),
    'createdAt',
    'createdBy',
    'updatedAt',
    'updatedBy',
    'version',
  ];
}

/** The row without the device's local fields (every one of them starts with `_`). */
export function exportRow(row: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) if (!key.startsWith('_')) out[key] = value;
  return out;
}
