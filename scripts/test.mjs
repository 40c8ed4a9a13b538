// `npm test`: typecheck, lint, format check, unit + server + integration tests (Vitest), the
// auth-js conformance suite (scripts/auth-conformance.mjs), one production build, then e2e in the
// system Chromium against the real server. Stops at the first failing step and says which.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(
    `No Chromium found at ${chromium}.\n` +
      'The e2e tests drive the system Chromium. Install it with:\n' +
      '  sudo apt-get update && sudo apt-get install -y chromium\n' +
      'or point CHROMIUM_PATH at an existing Chromium or Chrome binary.',
  );
  process.exit(1);
}

const steps = [
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
  ['lint', bin('eslint'), ['.', '--max-warnings=0']],
  ['format', bin('prettier'), ['--check', '.', '--log-level', 'warn']],
  ['unit, server and integration tests', bin('vitest'), ['run']],
  // supabase-js's own auth tests against the embedded auth service; skips without the suite.
  ['auth conformance', process.execPath, [path.join(root, 'scripts', 'auth-conformance.mjs')]],
  ['production build', bin('vite'), ['build', '--logLevel', 'warn']],
  ['e2e tests', bin('playwright'), ['test']],
];

const only = process.argv.slice(2);
for (const [name, command, args] of steps) {
  if (only.length > 0 && !only.some((o) => name.startsWith(o))) continue;
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, CHROMIUM_PATH: chromium },
  });
  if (result.status !== 0) {
    console.error(`\nnpm test failed at: ${name} (exit ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
  console.log(`=== ${name}: ok in ${((Date.now() - started) / 1000).toFixed(1)} s ===`);
}
