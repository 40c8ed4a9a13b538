// The Supabase auth client's own test suite (../shared/conformance/auth-js, see its RUN.md) against
// the embedded auth service, as a CI step (`node scripts/auth-conformance.mjs`, also run by
// `npm test`). It copies the suite to a temporary folder, installs it there from the registry,
// makes the suite its own signing key (whose public half the server trusts for admin tokens, as
// upstream's CLI stack does), starts this server with the suite's settings
// (test/supabase/config.toml), runs the suite through the suite's X-Forwarded-For proxy, and
// compares the failing tests with the "not offered" table in ARCHITECTURE.md: a failure the table
// does not name, or a count that differs from it, fails the step.
//
// Skips (exit 0, with a message) when the suite folder is absent. AUTH_CONFORMANCE_DIR points
// elsewhere; AUTH_CONFORMANCE_KEEP=1 keeps the temporary folder.
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const suiteDir = path.resolve(
  process.env.AUTH_CONFORMANCE_DIR ?? path.join(root, '..', 'shared', 'conformance', 'auth-js'),
);
const log = (message) => console.log(`[auth-conformance] ${message}`);

if (!existsSync(path.join(suiteDir, 'RUN.md'))) {
  log(`skipped: no auth-js conformance suite at ${suiteDir} (set AUTH_CONFORMANCE_DIR to run it)`);
  process.exit(0);
}

const started = Date.now();
const work = mkdtempSync(path.join(tmpdir(), 'satchel-auth-conformance-'));
const suite = path.join(work, 'auth-js');
const children = [];
let keep = process.env.AUTH_CONFORMANCE_KEEP === '1';

function cleanUp() {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  if (!keep) rmSync(work, { recursive: true, force: true });
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => process.exit(130));
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  return result.status === 0;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function answersOk(url) {
  return new Promise((resolve) => {
    get(url, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    }).on('error', () => resolve(false));
  });
}

async function waitFor(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await answersOk(url)) return;
    await sleep(250);
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** Failing tests against the table: true when every failure is documented and counts agree. */
function compare(results, notOffered, startedAt) {
  const failures = [];
  const suiteErrors = [];
  for (const file of results.testResults) {
    const name = file.name.replace(/.*[/\\]test[/\\]/, '');
    if (file.assertionResults.length === 0 && file.status === 'failed') suiteErrors.push(name);
    for (const test of file.assertionResults) {
      if (test.status === 'failed') failures.push(`${name} :: ${test.fullName}`);
    }
  }

  const unexpected = [];
  for (const failure of failures) {
    const row = notOffered.find((entry) => entry.prefixes.some((p) => failure.startsWith(p)));
    if (row) row.matched.push(failure);
    else unexpected.push(failure);
  }
  const miscounted = notOffered.filter((row) => row.matched.length !== row.expected);

  const total = results.numTotalTests;
  log(
    `${results.numPassedTests} passed, ${results.numFailedTests} failed of ${total} ` +
      `(${((Date.now() - startedAt) / 1000).toFixed(0)} s)`,
  );
  for (const row of notOffered) {
    if (row.expected > 0 || row.matched.length > 0) {
      log(
        `  not offered, ${row.feature}: ${row.matched.length} failing (documented ${row.expected})`,
      );
    }
  }
  let ok = true;
  if (suiteErrors.length > 0) {
    ok = false;
    console.error(`Test files that did not run: ${suiteErrors.join(', ')}`);
  }
  if (unexpected.length > 0) {
    ok = false;
    console.error(
      '\nFailing tests that are not a documented not-offered feature (ARCHITECTURE.md):',
    );
    for (const failure of unexpected) console.error(`  ${failure}`);
  }
  for (const row of miscounted) {
    ok = false;
    console.error(
      `\n"${row.feature}": ${row.matched.length} failing tests, ARCHITECTURE.md says ${row.expected}.` +
        (row.matched.length < row.expected
          ? ' Fewer failures is good news: update the count in ARCHITECTURE.md.'
          : ''),
    );
    for (const failure of row.matched) console.error(`  ${failure}`);
  }
  return ok;
}

/** The "not offered" table of ARCHITECTURE.md: feature, expected count, test-name prefixes. */
function readNotOffered() {
  const text = readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8');
  const start = text.indexOf('<!-- auth-conformance:not-offered:start -->');
  const end = text.indexOf('<!-- auth-conformance:not-offered:end -->');
  if (start < 0 || end < start) throw new Error('ARCHITECTURE.md has no not-offered table markers');
  const rows = text
    .slice(start, end)
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .slice(1)
    .map((line) => line.split('|').map((cell) => cell.trim()));
  return rows.map((cells) => {
    const feature = cells[1];
    const tests = cells[cells.length - 2] ?? '';
    const count = /^(\d+)/.exec(tests);
    if (!count) throw new Error(`ARCHITECTURE.md: "${feature}" has no test count`);
    return {
      feature,
      expected: Number(count[1]),
      prefixes: [...tests.matchAll(/`([^`]+)`/g)].map((match) => match[1]),
      matched: [],
    };
  });
}

// `--check <results.json>`: compare an existing run's results with the table, nothing else.
const checkIndex = process.argv.indexOf('--check');
if (checkIndex > 0) {
  const file = process.argv[checkIndex + 1] ?? '';
  const ok = compare(JSON.parse(readFileSync(file, 'utf8')), readNotOffered(), started);
  process.exit(ok ? 0 : 1);
}

try {
  const notOffered = readNotOffered();

  log(`copying ${suiteDir} to ${suite}`);
  cpSync(suiteDir, suite, {
    recursive: true,
    filter: (source) => !/[/\\](node_modules|results|coverage)$/.test(source),
  });
  mkdirSync(path.join(suite, 'results'));

  log('installing the suite (registry only)');
  const npmArgs = ['--no-audit', '--no-fund', '--loglevel=error'];
  if (!run('npm', ['ci', ...npmArgs], { cwd: suite })) {
    // As .ci/run: the reachable registry lacks some platforms' optional binaries the lockfile
    // names for other machines; npm install takes the same locked versions.
    log('npm ci refused the lockfile; installing the locked versions with npm install');
    if (!run('npm', ['install', ...npmArgs], { cwd: suite })) throw new Error('npm install failed');
  }

  // A fresh key for the suite's service-role token; the server trusts only its public half.
  if (!run(process.execPath, ['test/generate-signing-keys.js'], { cwd: suite, stdio: 'ignore' })) {
    throw new Error('test/generate-signing-keys.js failed');
  }
  const keys = JSON.parse(
    readFileSync(path.join(suite, 'test/supabase/signing_keys.json'), 'utf8'),
  );
  const publicKeys = keys.map(({ kty, n, e, crv, x, y, kid, alg }) => ({
    kty,
    n,
    e,
    crv,
    x,
    y,
    kid,
    alg,
  }));

  const port = await freePort();
  const proxyPort = await freePort();
  const base = `http://localhost:${port}`;
  const dataDir = path.join(work, 'data');
  // Only what the server needs: nothing from the CI environment (SMTP, Google, captcha, a hosted
  // project, a database) may change what the suite meets.
  const serverEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(work, 'no-static'),
    PUBLIC_URL: base,
    LOG_LEVEL: 'warn',
    TRUST_PROXY: '1',
    AUTH_AUTOCONFIRM: 'true',
    AUTH_ADMIN_JWT_KEYS: JSON.stringify(publicKeys),
    // test/supabase/config.toml, in our names.
    GOTRUE_PASSWORD_MIN_LENGTH: '6',
    GOTRUE_RATE_LIMIT_SIGN_IN_SIGN_UPS: '100',
    GOTRUE_RATE_LIMIT_TOKEN_REFRESH: '300',
    GOTRUE_RATE_LIMIT_VERIFY: '100',
    GOTRUE_SMTP_MAX_FREQUENCY: '1s',
    GOTRUE_SMS_MAX_FREQUENCY: '1s',
    GOTRUE_SECURITY_MANUAL_LINKING_ENABLED: 'false',
  };
  log(`starting the server on ${base}`);
  const serverLog = path.join(work, 'server.log');
  writeFileSync(serverLog, '');
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: serverEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(server);
  let serverOutput = '';
  server.stdout.on('data', (chunk) => (serverOutput += chunk));
  server.stderr.on('data', (chunk) => (serverOutput += chunk));
  try {
    // A cold start (tsx compiling the server, PGlite creating its files) is slow on a busy machine.
    await waitFor(`${base}/healthz`, 180_000);
  } catch (error) {
    console.error(serverOutput);
    throw error;
  }

  const proxy = spawn(process.execPath, ['xff-proxy.js', String(proxyPort), base], {
    cwd: suite,
    stdio: 'ignore',
  });
  children.push(proxy);
  await sleep(500);

  log('running the suite (RUN.md: run-suite.sh through the proxy)');
  run('bash', ['./run-suite.sh', base, 'ci'], {
    cwd: suite,
    env: { ...process.env, GOTRUE_URL: `http://localhost:${proxyPort}/auth/v1` },
  });
  const resultsFile = path.join(suite, 'results', 'ci.json');
  if (!existsSync(resultsFile)) {
    keep = true;
    throw new Error(`the suite wrote no results; see ${path.join(suite, 'results', 'ci.log')}`);
  }
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));

  const ok = compare(results, notOffered, started);
  if (!ok) {
    keep = true;
    console.error(`\nDetails: node failures.js results/ci.json in ${suite}; server log below.`);
    console.error(serverOutput.split('\n').slice(-40).join('\n'));
    process.exit(1);
  }
  log('every failure is a documented not-offered feature');
  process.exit(0);
} catch (error) {
  console.error(`[auth-conformance] failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
