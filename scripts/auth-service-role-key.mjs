// `node scripts/auth-service-role-key.mjs [--keep | --revoke]`: prints a new service-role key for
// the embedded auth service's admin API, once (server/auth/service-role-key-command.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { register } = await import('tsx/esm/api');
register();
const { runServiceRoleKeyCommand } = await import(
  path.join(root, 'server', 'auth', 'service-role-key-command.ts')
);
process.exitCode = await runServiceRoleKeyCommand(process.argv.slice(2));
