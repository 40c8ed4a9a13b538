// `npm test`: typecheck, lint, format check, unit + server + integration tests (Vitest), the
// auth-js conformance suite (scripts/auth-conformance.mjs), one production build, then e2e in the
// Chromium (scripts/chromium-path.mjs) against the real server. Stops at the first failing step and says which.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveChromium } from './chromium-path.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

// CHROMIUM_PATH, the system's Chromium, or the one packaged in @sparticuz/chromium (README).
const found = await resolveChromium();
if ('error' in found) {
  console.error(found.error);
  process.exit(1);
}
if (found.source !== 'system') console.log(`e2e Chromium: ${found.path} (${found.source})`);
const chromium = found.path;

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
    env: { ...process.env, ...found.env, CHROMIUM_PATH: chromium },
  });
  if (result.status !== 0) {
    console.error(`\nnpm test failed at: ${name} (exit ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
  console.log(`=== ${name}: ok in ${((Date.now() - started) / 1000).toFixed(1)} s ===`);
}
