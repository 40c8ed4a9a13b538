/**
 * `node scripts/auth-service-role-key.mjs [--keep | --revoke]`: makes the embedded auth service's
 * service-role key and prints it once (only its SHA-256 is stored, so it cannot be shown again).
 * A new key revokes the previous ones unless `--keep`; `--revoke` revokes all and makes none.
 *
 * Uses the same configuration as the server (DATA_DIR or DATABASE_URL, PUBLIC_URL). With the
 * embedded database (PGlite) stop the server first: only one process may open DATA_DIR.
 */
import { createDatabase } from '../db/create-database.ts';
import { EnvError, readEnv } from '../env.ts';
import { createLogger } from '../logger.ts';
import { createServiceRoleKey, revokeServiceRoleKeys } from './admin-credentials.ts';
import { loadSigningKeys } from './signing-keys.ts';

export async function runServiceRoleKeyCommand(args: readonly string[]): Promise<number> {
  const unknown = args.filter((arg) => arg !== '--keep' && arg !== '--revoke');
  if (unknown.length > 0) {
    process.stderr.write(
      `Unknown argument ${unknown[0]}.\nUsage: node scripts/auth-service-role-key.mjs [--keep | --revoke]\n`,
    );
    return 2;
  }
  let env;
  try {
    env = readEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  if (env.hosted) {
    process.stderr.write(
      'SUPABASE_URL is set: accounts are the hosted project’s, whose service-role key is in its dashboard.\n',
    );
    return 1;
  }
  const logger = createLogger({ level: 'warn' });
  const db = await createDatabase({ databaseUrl: env.databaseUrl, dataDir: env.dataDir, logger });
  try {
    const now = new Date();
    if (args.includes('--revoke')) {
      const revoked = await revokeServiceRoleKeys(db, now);
      process.stderr.write(`Revoked ${revoked} service-role key(s); none is accepted now.\n`);
      return 0;
    }
    const issuer = `${env.publicUrl}/auth/v1`;
    const keys = await loadSigningKeys(db, { issuer, now: () => now });
    const key = await createServiceRoleKey(db, keys, {
      issuer,
      now,
      keep: args.includes('--keep'),
    });
    process.stderr.write(
      [
        'The service-role key of the embedded auth service (shown once; only its hash is kept).',
        'It passes every check: use it only on servers (never in a browser or an app bundle),',
        `as supabase-js's key for auth.admin, against ${issuer}.`,
        args.includes('--keep')
          ? 'Earlier keys stay valid (--keep).'
          : 'Earlier keys, if any, are revoked.',
        '',
      ].join('\n'),
    );
    process.stdout.write(`${key}\n`);
    return 0;
  } finally {
    await db.close();
  }
}
