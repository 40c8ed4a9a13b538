/** Client rows for the tests: as the server sends one in a pull, and as a pull leaves it here. */
import type { Client } from '#contract/entities/client.ts';
import type { LocalClient } from './app-database.ts';

const AT = '2026-01-01T00:00:00.000Z';

/** A client as the server has it; `fields` set what a test is about. */
export function serverClientRow(
  fields: Pick<Client, 'id' | 'workspaceId' | 'name'> & Partial<Client>,
): Client {
  return {
    company: null,
    email: null,
    phone: null,
    address: null,
    website: null,
    notesSummary: null,
    tags: [],
    status: 'active',
    currency: 'USD',
    locale: null,
    timeZone: null,
    archived: false,
    createdAt: AT,
    createdBy: 'u1',
    updatedAt: AT,
    updatedBy: 'u1',
    version: 1,
    ...fields,
  };
}

/** The same client on the device, synced at its version with nothing pending. */
export function syncedClientRow(
  fields: Pick<Client, 'id' | 'workspaceId' | 'name'> & Partial<LocalClient>,
): LocalClient {
  const row = serverClientRow(fields);
  return { _v: row.version, _pending: 0, _deleted: false, _base: {}, ...row, ...fields };
}
