/**
 * Files benchmarks (issue 13), each figure beside a reference measured in the same run:
 * - tus upload throughput of a 256 MiB file to local disk, beside a raw stream copy of the same
 *   file into the same data dir with the same fsync (target: at least 70% of raw);
 * - the same to Azure Blob Storage (Azurite), beside the SDK's own uploadFile of the same file to
 *   the same Azurite with the adapter's block settings (target: at least 70% of raw);
 * - download of that 256 MiB file through its signed link, beside the same bytes served as a
 *   static file (@hono/node-server serveStatic) by the same process (target: at least 80%);
 * - the real server process's RSS during a 1 GiB tus upload (target: under 100 MiB above idle).
 *
 * Uploads use the real tus-js-client in Node with an fs.ReadStream source and no chunkSize, as
 * the app's own client sends (the default, Infinity): one PATCH carries the whole file, read from
 * disk as it is sent (tus-js-client's FileSource reopens the file by path; nothing holds the file
 * in memory). The source files are random bytes written once to a temporary folder (in the page
 * cache, for the figure and its reference alike) and removed at the end.
 *
 * Throughput runs take the best of 3, figure and reference alternating, because the machine is
 * shared and noisy. Client and server share one process (and event loop) in the first three, as
 * the raw references share it with nothing else; the memory run uses a separate server process.
 * Run alone with `npx tsx bench/files-benchmarks.ts`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomFillSync, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { mkdtemp, open, rm, unlink } from 'node:fs/promises';
import { get as httpGet, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { BlobServiceClient } from '@azure/storage-blob';
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { Upload } from 'tus-js-client';
import { startAzurite } from '../tests/fixtures/azurite.ts';
import { withTarget, type BenchRow } from './bench-row.ts';
import { createFilesBenchApp, freePort, type FilesBenchApp } from './files-bench-app.ts';

type Row = BenchRow;

const MIB = 1024 * 1024;
const FILE_BYTES = 256 * MIB;
/** The free plan's whole storage (1 GiB), uploaded into an empty workspace: used + size = max. */
const BIG_FILE_BYTES = 1024 * MIB;
/** Each local run keeps its 256 MiB file: 3 of them (and the warm-up) fit the free plan's 1 GiB. */
const RUNS = 3;
/** The storage adapter's settings for Azure (azure-blob-storage.ts), used by the raw reference. */
const AZURE_BLOCK_BYTES = 4 * MIB;
const AZURE_CONCURRENCY = 4;
const RSS_SAMPLE_MS = 100;
const PASSWORD = 'files-bench-Passw0rd-4821';
const root = path.resolve(import.meta.dirname, '..');

const mibPerS = (bytes: number, ms: number) => (bytes / MIB / (ms / 1000)).toFixed(0);
const rate = (bytes: number, ms: number) =>
  `${mibPerS(bytes, ms)} MiB/s (${(ms / 1000).toFixed(2)} s)`;

/** Random bytes into a file, 8 MiB at a time (never the whole file in memory). */
async function writeRandomFile(file: string, size: number): Promise<void> {
  const handle = await open(file, 'w');
  try {
    const buffer = Buffer.alloc(8 * MIB);
    for (let written = 0; written < size;) {
      const n = Math.min(buffer.length, size - written);
      randomFillSync(buffer, 0, n);
      await handle.write(buffer, 0, n);
      written += n;
    }
  } finally {
    await handle.close();
  }
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** Runs figure and reference alternately `runs` times; the best (shortest) time of each. */
async function bestOf(
  runs: number,
  figure: (i: number) => Promise<unknown>,
  reference: (i: number) => Promise<unknown>,
): Promise<{ figureMs: number; referenceMs: number }> {
  let figureMs = Infinity;
  let referenceMs = Infinity;
  for (let i = 0; i < runs; i += 1) {
    figureMs = Math.min(figureMs, await timed(() => figure(i)));
    referenceMs = Math.min(referenceMs, await timed(() => reference(i)));
  }
  return { figureMs, referenceMs };
}

/** Uploads a file with the real tus client; resolves with the file id the server answered. */
function tusUpload(options: {
  origin: string;
  token: string;
  file: string;
  metadata: Record<string, string>;
}): Promise<string> {
  return new Promise((resolve, reject) => {
    const upload = new Upload(createReadStream(options.file), {
      endpoint: `${options.origin}/files/uploads`,
      metadata: options.metadata,
      headers: { Authorization: `Bearer ${options.token}` },
      retryDelays: [],
      storeFingerprintForResuming: false,
      onError: reject,
      onSuccess: ({ lastResponse }) => {
        const fileId = lastResponse.getHeader('Satchel-File-Id');
        if (fileId) resolve(fileId);
        else reject(new Error('the finished upload answered no file id'));
      },
    });
    upload.start();
  });
}

/** The reference of a local upload: the same bytes streamed into a file, then fsynced. */
async function rawCopy(source: string, target: string): Promise<void> {
  await pipeline(createReadStream(source), createWriteStream(target));
  const handle = await open(target, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** GETs a URL and drops the bytes as they come; fails unless it is a 200 of `size` bytes. */
function download(url: string, size: number): Promise<void> {
  return new Promise((resolve, reject) => {
    httpGet(url, (response) => {
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
      });
      response.once('error', reject);
      response.once('end', () => {
        if (response.statusCode === 200 && received === size) resolve();
        else reject(new Error(`GET ${url}: ${response.statusCode}, ${received} of ${size} bytes`));
      });
    }).once('error', reject);
  });
}

/** A tus upload of `file` as the bench app's user, into its project, under `name`. */
function uploaderOf(app: FilesBenchApp) {
  return async (name: string, file: string) =>
    tusUpload({
      origin: app.origin,
      token: await app.token(),
      file,
      metadata: { projectId: app.projectId, filename: name, filetype: 'application/octet-stream' },
    });
}

async function localBenchmarks(source: string): Promise<Row[]> {
  const app = await createFilesBenchApp({ azure: null, maxFileBytes: 2 * FILE_BYTES });
  const dir = path.dirname(source);
  const warmUp = path.join(dir, 'warm-up.bin');
  // The reference static file server: the same bytes, same process, its own listener.
  const bare = new Hono();
  bare.get('/bench.bin', serveStatic({ path: source }));
  const staticPort = await freePort();
  const staticServer = serve({ fetch: bare.fetch, port: staticPort, hostname: '127.0.0.1' });
  await new Promise((resolve) => staticServer.once('listening', resolve));
  try {
    const upload = uploaderOf(app);
    await writeRandomFile(warmUp, MIB);
    await upload('warm-up.bin', warmUp);
    await rawCopy(warmUp, path.join(app.dataDir, 'raw-warm-up.bin'));

    const fileIds: string[] = [];
    const rawFile = path.join(app.dataDir, 'raw.bin');
    const up = await bestOf(
      RUNS,
      async (i) => fileIds.push(await upload(`bench-${i}.bin`, source)),
      async () => {
        await rawCopy(source, rawFile);
        await unlink(rawFile);
      },
    );

    // What hashing the file costs alone (the upload's hash runs on a worker thread as it arrives).
    let shaMs = Infinity;
    for (let i = 0; i < RUNS; i += 1) {
      shaMs = Math.min(
        shaMs,
        await timed(() => pipeline(createReadStream(source), createHash('sha256'))),
      );
    }

    const link = await app.call(
      'GET',
      `/api/file?endpoint=get-download-url&id=${fileIds[0]}&expiryMinutes=60`,
    );
    if (link.status !== 200) throw new Error(`get-download-url answered ${link.status}`);
    const signedUrl = String(link.body.url);
    const staticUrl = `http://127.0.0.1:${staticPort}/bench.bin`;
    await download(signedUrl, FILE_BYTES);
    await download(staticUrl, FILE_BYTES);
    const down = await bestOf(
      RUNS,
      () => download(signedUrl, FILE_BYTES),
      () => download(staticUrl, FILE_BYTES),
    );

    const upRatio = up.referenceMs / up.figureMs;
    const downRatio = down.referenceMs / down.figureMs;
    return [
      withTarget(
        {
          what: `tus upload of a 256 MiB file to local disk, best of ${RUNS}: tus-js-client (fs.ReadStream source, chunkSize unset: one PATCH) to the in-process server over HTTP on 127.0.0.1, from the creation POST to the finished answer (staged under DATA_DIR/uploads as it arrives, each write hashed on the server's hashing worker thread and flushed to disk every 32 MiB; at the last byte the rest of the hash, fsync of the tail, rename into DATA_DIR/files, file row). A sha-256 pass over the same file alone, same run: ${(shaMs / 1000).toFixed(2)} s`,
          figure: rate(FILE_BYTES, up.figureMs),
          reference: `${rate(FILE_BYTES, up.referenceMs)} (raw stream copy of the same file into the same data dir, then fsync; best of ${RUNS})`,
          ratio: `${upRatio.toFixed(2)} of raw`,
        },
        '>= 0.70 of raw',
        upRatio >= 0.7,
      ),
      withTarget(
        {
          what: `download of that 256 MiB file through its signed link (GET /files/d/…: link check, live-file query, streamed from local disk), Node http client in the same process, best of ${RUNS}`,
          figure: rate(FILE_BYTES, down.figureMs),
          reference: `${rate(FILE_BYTES, down.referenceMs)} (the same bytes as a static file: @hono/node-server serveStatic on a bare Hono route, same process, own listener; the app's static handler reads whole files into memory, unfit for 256 MiB; best of ${RUNS})`,
          ratio: `${downRatio.toFixed(2)} of raw`,
        },
        '>= 0.80 of raw',
        downRatio >= 0.8,
      ),
    ];
  } finally {
    const closed = new Promise((resolve) => staticServer.close(resolve));
    (staticServer as Server).closeAllConnections();
    await closed;
    await app.close();
    await rm(warmUp, { force: true });
  }
}

async function azureBenchmarks(source: string): Promise<Row[]> {
  // Room for every run's blobs (Azurite keeps them in memory; deleting frees them only later).
  const azurite = await startAzurite({ extentMemoryLimitMb: 3072 });
  let app: FilesBenchApp | undefined;
  const warmUp = path.join(path.dirname(source), 'warm-up-azure.bin');
  try {
    app = await createFilesBenchApp({
      azure: { connectionString: azurite.connectionString, container: 'files' },
      maxFileBytes: 2 * FILE_BYTES,
    });
    const container = BlobServiceClient.fromConnectionString(
      azurite.connectionString,
    ).getContainerClient('raw');
    await container.createIfNotExists();
    const rawUpload = async (file: string) => {
      const blob = container.getBlockBlobClient(randomUUID());
      await blob.uploadFile(file, {
        blockSize: AZURE_BLOCK_BYTES,
        concurrency: AZURE_CONCURRENCY,
        maxSingleShotSize: AZURE_BLOCK_BYTES,
        blobHTTPHeaders: { blobContentType: 'application/octet-stream' },
      });
      return blob;
    };
    const upload = uploaderOf(app);
    await writeRandomFile(warmUp, MIB);
    await upload('warm-up.bin', warmUp);
    await (await rawUpload(warmUp)).delete();

    const up = await bestOf(
      RUNS,
      (i) => upload(`bench-${i}.bin`, source),
      async () => (await rawUpload(source)).delete(),
    );
    const ratio = up.referenceMs / up.figureMs;
    return [
      withTarget(
        {
          what: `tus upload of a 256 MiB file to Azure Blob Storage (Azurite from its npm package, in memory), best of ${RUNS}: as above (staged on local disk, hashed on the worker), and each complete 4 MiB block staged to Azure (stageBlock, 4 at a time) while the rest arrives; the last byte sends the last block and commits the block list`,
          figure: rate(FILE_BYTES, up.figureMs),
          reference: `${rate(FILE_BYTES, up.referenceMs)} (raw BlockBlobClient.uploadFile of the same file to the same Azurite, the adapter's 4 MiB blocks, 4 at a time; best of ${RUNS})`,
          ratio: `${ratio.toFixed(2)} of raw`,
        },
        '>= 0.70 of raw',
        ratio >= 0.7,
      ),
    ];
  } finally {
    await app?.close();
    await azurite.stop();
    await rm(warmUp, { force: true });
  }
}

/** VmRSS (or another /proc status field) of a process in kB; null where /proc is missing. */
function statusKb(pid: number, field = 'VmRSS'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

async function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      AUTH_AUTOCONFIRM: 'true',
      LOG_LEVEL: 'warn',
      FILE_MAX_BYTES: String(2 * BIG_FILE_BYTES),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 50) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`server exited with ${child.exitCode}: ${output.join('').slice(-2000)}`);
    }
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { child, url };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not answer /healthz within 60 s: ${output.join('').slice(-2000)}`);
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Signs a new user up (autoconfirmed), registers her and makes a project; token and project. */
async function newUploader(url: string, anonKey: string, name: string) {
  const json = async (path: string, body: unknown, token?: string) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(token ? { Authorization: `Bearer ${token}` } : { apikey: anonKey }),
      },
      body: JSON.stringify(body),
    });
    const parsed = (await response.json()) as Record<string, any>;
    if (!response.ok)
      throw new Error(`${path} answered ${response.status}: ${JSON.stringify(parsed)}`);
    return parsed;
  };
  const email = `files-bench-${name}-${randomUUID().slice(0, 8)}@example.com`;
  const session = await json('/auth/v1/signup', { email, password: PASSWORD });
  const token = String(session.access_token);
  const registered = await json(
    '/api/register?endpoint=register-user',
    { id: session.user.id, email, firstName: name },
    token,
  );
  const workspaceId = String(registered.data.workspace.id);
  const client = await json(
    '/api/client?endpoint=create-client',
    { id: randomUUID(), workspaceId, name: `${name} client` },
    token,
  );
  const project = await json(
    '/api/project?endpoint=create-project',
    { id: randomUUID(), workspaceId, clientId: client.client.id, name: `${name} project` },
    token,
  );
  return { token, projectId: String(project.project.id) };
}

async function memoryBenchmark(dir: string): Promise<Row[]> {
  const big = path.join(dir, 'big.bin');
  const warmUp = path.join(dir, 'warm-up-process.bin');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'satchel-files-bench-server-'));
  let server: { child: ChildProcess; url: string } | undefined;
  try {
    await writeRandomFile(big, BIG_FILE_BYTES);
    await writeRandomFile(warmUp, MIB);
    server = await startServer(dataDir);
    const { url } = server;
    const pid = server.child.pid;
    if (pid === undefined) throw new Error('server has no pid');
    const config = (await (await fetch(`${url}/api/config?endpoint=get-public-config`)).json()) as {
      supabaseAnonKey: string;
    };
    // The warm-up (a 1 MiB upload, so every module of the path is loaded before idle is read)
    // goes to another workspace: the measured one stays empty and takes exactly its 1 GiB.
    const other = await newUploader(url, config.supabaseAnonKey, 'Warm');
    const uploader = await newUploader(url, config.supabaseAnonKey, 'Big');
    await tusUpload({
      origin: url,
      token: other.token,
      file: warmUp,
      metadata: { projectId: other.projectId, filename: 'warm-up.bin' },
    });

    // Idle: the median of a second of samples once the warm-up has settled.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleSamples: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const now = statusKb(pid);
      if (now !== null) idleSamples.push(now);
      await new Promise((resolve) => setTimeout(resolve, RSS_SAMPLE_MS));
    }
    idleSamples.sort((a, b) => a - b);
    const idleKb = idleSamples[Math.floor(idleSamples.length / 2)] ?? null;

    let peakKb = 0;
    let samples = 0;
    const sample = () => {
      const now = statusKb(pid);
      if (now === null) return;
      samples += 1;
      peakKb = Math.max(peakKb, now);
    };
    sample();
    const timer = setInterval(sample, RSS_SAMPLE_MS);
    let ms: number;
    try {
      ms = await timed(() =>
        tusUpload({
          origin: url,
          token: uploader.token,
          file: big,
          metadata: { projectId: uploader.projectId, filename: 'big.bin' },
        }),
      );
    } finally {
      clearInterval(timer);
    }
    sample();
    const lifetimeKb = statusKb(pid, 'VmHWM');
    if (idleKb === null || samples === 0) {
      return [
        {
          what: 'server RSS during a 1 GiB tus upload',
          figure: 'n/a (no /proc)',
          reference: '—',
          ratio: '—',
        },
      ];
    }
    const extraMib = (peakKb - idleKb) / 1024;
    return [
      withTarget(
        {
          what: `server RSS during a 1 GiB tus upload (exactly the free plan's 1 GiB, into an empty workspace; FILE_MAX_BYTES 2 GiB): the real server process (\`node --import tsx server/main.ts\`, PGlite and files in a temporary DATA_DIR, LOG_LEVEL=warn), tus-js-client from the bench process, one PATCH; VmRSS sampled every ${RSS_SAMPLE_MS} ms from the creation POST to the finished answer (${samples} samples, ${rate(BIG_FILE_BYTES, ms)}; process peak over its life, start-up included: ${lifetimeKb === null ? 'n/a' : `${(lifetimeKb / 1024).toFixed(0)} MiB`})`,
          figure: `${(peakKb / 1024).toFixed(0)} MiB peak, +${extraMib.toFixed(0)} MiB`,
          reference: `${(idleKb / 1024).toFixed(0)} MiB idle before (median of 10 samples after a 1 MiB warm-up upload)`,
          ratio: `${(peakKb / idleKb).toFixed(2)}x idle`,
        },
        'under 100 MiB above idle',
        extraMib < 100,
      ),
    ];
  } finally {
    if (server) await stopServer(server.child);
    await rm(dataDir, { recursive: true, force: true });
    await rm(big, { force: true });
    await rm(warmUp, { force: true });
  }
}

export async function runFilesBenchmarks(): Promise<Row[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'satchel-files-bench-src-'));
  try {
    const source = path.join(dir, 'bench.bin');
    await writeRandomFile(source, FILE_BYTES);
    const local = await localBenchmarks(source);
    const azure = await azureBenchmarks(source);
    await rm(source, { force: true });
    const memory = await memoryBenchmark(dir);
    // Upload rows first, then the download, then memory.
    return [local[0], ...azure, local[1], ...memory].filter((row): row is Row => !!row);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await runFilesBenchmarks()) {
    process.stdout.write(
      `| ${row.what} | ${row.figure} | ${row.reference} | ${row.ratio} | ${row.target ?? '—'} | ${row.pass === undefined ? '—' : row.pass ? 'pass' : '**fail**'} |\n`,
    );
  }
}
