import type { ResourceHandlers } from '../http/endpoint-handler.ts';

export function createSystemHandlers(deps: { version: string }): ResourceHandlers<'system'> {
  return {
    'system/get-version': async ({ tx }) => {
      const { rows } = await tx.query<{ version: number | null }>(
        'SELECT max(version) AS version FROM schema_migrations',
      );
      return { version: deps.version, schemaVersion: rows[0]?.version ?? null };
    },
  };
}
