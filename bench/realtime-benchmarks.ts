/**
 * The notification hub under 2,000 concurrent connections on one process (loopback only), each
 * figure beside a bare `ws` server doing the same with the same payload in the same run:
 * - delivery time of a message to one user's group (one connection), p50/p99;
 * - delivery time of a workspace broadcast to all 2,000 connections, p50/p99 over every receipt;
 * - memory per idle connection (server heap + external after GC, per connection).
 *
 * The 2,000 clients are raw `ws` sockets speaking the protocol by hand (negotiate, handshake,
 * pings), in a worker thread: the main thread's heap then holds only the server side, and the
 * client work runs on the other core. Delivery time = receipt time in the worker minus send time
 * in the main thread, both on the absolute high-resolution clock (timeOrigin + now()).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { WebSocketServer, type WebSocket } from 'ws';
import { createLogger } from '../server/logger.ts';
import { withTarget, type BenchRow } from './bench-row.ts';
import { userGroup, workspaceGroup } from '../server/realtime/hub-groups.ts';
import { invocationRecord } from '../server/realtime/hub-protocol.ts';
import { createHubTokens } from '../server/realtime/hub-tokens.ts';
import { createNotificationHub } from '../server/realtime/notification-hub.ts';

type Row = BenchRow;

const CONNECTIONS = 2_000;
const USER_SENDS = 400;
const BROADCASTS = 15;
const PHASE_TIMEOUT_MS = 90_000;

// Runs in the worker (plain JS, CommonJS): opens the clients and timestamps every receipt.
const CLIENT_WORKER = `
const { parentPort } = require('node:worker_threads');
const WebSocket = require('ws');
const clock = () => performance.timeOrigin + performance.now();
let sockets = [];
let expected = 0;
let latencies = [];
let pinger = null;

function onText(text) {
  for (const record of text.split('\\x1e')) {
    if (record === '' || record === '{}' || record === '{"type":6}') continue;
    const message = JSON.parse(record);
    if (message.type !== 1 || message.target !== 'bench') continue;
    latencies.push(clock() - message.arguments[0].sentAt);
    if (latencies.length === expected) {
      parentPort.postMessage({ event: 'received', latencies });
      latencies = [];
    }
  }
}

async function open(url, headers) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers, perMessageDeflate: false });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

async function connectHub(base, tokens) {
  const ids = new Array(tokens.length);
  let next = 0;
  async function lane() {
    while (next < tokens.length) {
      const i = next++;
      const response = await fetch(base + '/negotiate?negotiateVersion=1', {
        method: 'POST',
        headers: { Authorization: 'Bearer ' + tokens[i] },
      });
      const body = await response.json();
      const ws = await open(
        base.replace(/^http/, 'ws') + '?id=' + encodeURIComponent(body.connectionToken) +
          '&access_token=' + encodeURIComponent(tokens[i]),
      );
      await new Promise((resolve) => {
        ws.once('message', resolve);
        ws.send('{"protocol":"json","version":1}\\x1e');
      });
      ws.on('message', (data) => onText(data.toString()));
      sockets[i] = ws;
      ids[i] = body.connectionId;
    }
  }
  await Promise.all(Array.from({ length: 32 }, lane));
  // What a real client does: a ping well within the server's 30 s client timeout.
  pinger = setInterval(() => { for (const ws of sockets) ws.send('{"type":6}\\x1e'); }, 10000);
  return ids;
}

async function connectRaw(base, count) {
  let next = 0;
  async function lane() {
    while (next < count) {
      const i = next++;
      const ws = await open(base.replace(/^http/, 'ws') + '/raw?i=' + i);
      ws.on('message', (data) => onText(data.toString()));
      sockets[i] = ws;
    }
  }
  await Promise.all(Array.from({ length: 32 }, lane));
  return sockets.map((_, i) => String(i));
}

parentPort.on('message', async (command) => {
  try {
    if (command.cmd === 'connect') {
      sockets = [];
      const ids = command.mode === 'hub'
        ? await connectHub(command.url, command.tokens)
        : await connectRaw(command.url, command.count);
      parentPort.postMessage({ event: 'connected', ids });
    } else if (command.cmd === 'expect') {
      expected = command.count;
      latencies = [];
      parentPort.postMessage({ event: 'ready' });
    } else if (command.cmd === 'close') {
      if (pinger) clearInterval(pinger);
      await Promise.all(sockets.map((ws) => new Promise((resolve) => {
        if (ws.readyState === WebSocket.CLOSED) return resolve();
        ws.once('close', resolve);
        ws.close();
      })));
      sockets = [];
      parentPort.postMessage({ event: 'closed' });
    }
  } catch (error) {
    parentPort.postMessage({ event: 'error', message: String(error && error.stack || error) });
  }
});
`;

type WorkerEvent =
  | { event: 'connected'; ids: string[] }
  | { event: 'received'; latencies: number[] }
  | { event: 'ready' }
  | { event: 'closed' }
  | { event: 'error'; message: string };

function createClients() {
  const worker = new Worker(CLIENT_WORKER, { eval: true });
  let waiting: ((event: WorkerEvent) => void) | null = null;
  worker.on('message', (event: WorkerEvent) => {
    const wake = waiting;
    waiting = null;
    wake?.(event);
  });
  function request<E extends WorkerEvent['event']>(
    expected: E,
    command: unknown,
    after?: () => void,
  ): Promise<Extract<WorkerEvent, { event: E }>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`bench: no '${expected}' in time`)),
        PHASE_TIMEOUT_MS,
      );
      waiting = (event) => {
        clearTimeout(timer);
        if (event.event === expected) resolve(event as Extract<WorkerEvent, { event: E }>);
        else reject(new Error(`bench: expected '${expected}', got ${JSON.stringify(event)}`));
      };
      worker.postMessage(command);
      after?.();
    });
  }
  return {
    connect: (command: { mode: 'hub' | 'raw'; url: string; tokens?: string[]; count: number }) =>
      request('connected', { cmd: 'connect', ...command }).then((e) => e.ids),
    /** Arms the worker for `count` receipts, runs `send`, resolves with their delivery times. */
    async measure(count: number, send: () => void | Promise<void>): Promise<number[]> {
      await request('ready', { cmd: 'expect', count });
      const received = new Promise<number[]>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error('bench: receipts missing')),
          PHASE_TIMEOUT_MS,
        );
        waiting = (event) => {
          clearTimeout(timer);
          if (event.event === 'received') resolve(event.latencies);
          else reject(new Error(`bench: expected receipts, got ${JSON.stringify(event)}`));
        };
      });
      await send();
      return received;
    },
    close: () => request('closed', { cmd: 'close' }),
    terminate: () => worker.terminate(),
  };
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const clock = () => performance.timeOrigin + performance.now();

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function serverMemory(): number {
  gc();
  gc();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A notification the size the app really receives, plus the send time for the measurement. */
function benchPayload(seq: number) {
  return {
    seq,
    sentAt: clock(),
    notification: {
      id: randomUUID(),
      type: 'task-assigned',
      title: 'Bob assigned you a task',
      body: 'Draft the proposal for the autumn campaign and share it with the client by Friday.',
      link: '/projects/0192f3a0-0000-7000-8000-000000000001/tasks',
      isRead: false,
      createdAt: new Date().toISOString(),
      actor: { id: randomUUID(), firstName: 'Bob', lastName: 'Builder', profilePictureUrl: null },
      workspaceId: randomUUID(),
      projectId: randomUUID(),
    },
  };
}

interface PhaseResult {
  user: number[];
  broadcast: number[];
  bytesPerConnection: number;
}

async function hubPhase(clients: ReturnType<typeof createClients>): Promise<PhaseResult> {
  const baseline = serverMemory();
  const secret = randomBytes(32);
  const tokens = createHubTokens({ secret });
  const hub = createNotificationHub({
    logger: createLogger({ level: 'silent' }),
    publicUrl: 'http://127.0.0.1',
    tokens,
  });
  const routes = new Hono().route(hub.path, hub.app);
  const listener = getRequestListener(routes.fetch);
  const server = createServer((request, response) => void listener(request, response));
  server.on('upgrade', (request, socket, head) => hub.handleUpgrade(request, socket, head));
  const base = `${await listen(server)}${hub.path}`;

  const users = Array.from({ length: CONNECTIONS }, () => randomUUID());
  const hubTokens = await Promise.all(users.map((user) => tokens.sign(user)));
  const ids = await clients.connect({
    mode: 'hub',
    url: base,
    tokens: hubTokens,
    count: CONNECTIONS,
  });
  const workspace = workspaceGroup(randomUUID());
  for (const [i, id] of ids.entries()) {
    const user = users[i] as string;
    await hub.joinGroup({ connectionId: id, userId: user, group: userGroup(user) });
    await hub.joinGroup({ connectionId: id, userId: user, group: workspace });
  }
  const bytesPerConnection = (serverMemory() - baseline) / CONNECTIONS;

  const user: number[] = [];
  for (let i = 0; i < USER_SENDS; i += 1) {
    const target = users[(i * 7919) % CONNECTIONS] as string;
    user.push(
      ...(await clients.measure(1, () =>
        hub.sendToGroup(userGroup(target), 'bench', [benchPayload(i)]),
      )),
    );
  }
  const broadcast: number[] = [];
  for (let i = 0; i < BROADCASTS; i += 1) {
    broadcast.push(
      ...(await clients.measure(CONNECTIONS, () =>
        hub.sendToGroup(workspace, 'bench', [benchPayload(i)]),
      )),
    );
  }
  await clients.close();
  await hub.shutdown();
  await close(server);
  return { user, broadcast, bytesPerConnection };
}

async function rawPhase(clients: ReturnType<typeof createClients>): Promise<PhaseResult> {
  const baseline = serverMemory();
  const sockets: WebSocket[] = [];
  const wss = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    perMessageDeflate: false,
  });
  const server = createServer((_request, response) => response.writeHead(404).end());
  server.on('upgrade', (request, socket, head) => {
    const index = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('i'));
    wss.handleUpgrade(request, socket, head, (ws) => {
      sockets[index] = ws;
    });
  });
  const base = await listen(server);
  await clients.connect({ mode: 'raw', url: base, count: CONNECTIONS });
  const bytesPerConnection = (serverMemory() - baseline) / CONNECTIONS;

  // The same record the hub sends (a JSON invocation ending in 0x1E), written straight to sockets.
  const user: number[] = [];
  for (let i = 0; i < USER_SENDS; i += 1) {
    const socket = sockets[(i * 7919) % CONNECTIONS] as WebSocket;
    user.push(
      ...(await clients.measure(1, () => {
        socket.send(invocationRecord('bench', [benchPayload(i)]));
      })),
    );
  }
  const broadcast: number[] = [];
  for (let i = 0; i < BROADCASTS; i += 1) {
    broadcast.push(
      ...(await clients.measure(CONNECTIONS, () => {
        const record = invocationRecord('bench', [benchPayload(i)]);
        for (const socket of sockets) socket.send(record);
      })),
    );
  }
  await clients.close();
  await close(server);
  return { user, broadcast, bytesPerConnection };
}

export async function runRealtimeBenchmarks(): Promise<Row[]> {
  const clients = createClients();
  try {
    // Reference first, so the hub does not run on a process already warmed by it.
    const raw = await rawPhase(clients);
    const hub = await hubPhase(clients);
    const pair = (samples: number[], p: number, ref: number[]) => ({
      figure: ms(percentile(samples, p)),
      reference: ms(percentile(ref, p)),
      ratio: `${(percentile(samples, p) / Math.max(percentile(ref, p), 0.001)).toFixed(2)}x`,
    });
    const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
    return [
      {
        what: `hub: message to one user group with ${CONNECTIONS} connections open, p50 of ${USER_SENDS}`,
        ...pair(hub.user, 50, raw.user),
        reference: `${ms(percentile(raw.user, 50))} (bare ws send to that socket)`,
      },
      withTarget(
        {
          what: `hub: message to one user group, p99 of ${USER_SENDS}`,
          ...pair(hub.user, 99, raw.user),
          reference: `${ms(percentile(raw.user, 99))} (bare ws send to that socket)`,
        },
        'p99 < 50 ms',
        percentile(hub.user, 99) < 50,
      ),
      {
        what: `hub: workspace broadcast to all ${CONNECTIONS} connections, p50 of ${BROADCASTS * CONNECTIONS} receipts`,
        ...pair(hub.broadcast, 50, raw.broadcast),
        reference: `${ms(percentile(raw.broadcast, 50))} (bare ws loop over ${CONNECTIONS} sockets)`,
      },
      withTarget(
        {
          what: `hub: workspace broadcast to all ${CONNECTIONS} connections, p99`,
          ...pair(hub.broadcast, 99, raw.broadcast),
          reference: `${ms(percentile(raw.broadcast, 99))} (bare ws loop over ${CONNECTIONS} sockets)`,
        },
        'p99 < 250 ms',
        percentile(hub.broadcast, 99) < 250,
      ),
      withTarget(
        {
          what: `hub: server memory per idle connection (heap + external after GC, ${CONNECTIONS} connections in a user and a workspace group)`,
          figure: kib(hub.bytesPerConnection),
          reference: `${kib(raw.bytesPerConnection)} (bare ws server)`,
          ratio: `${(hub.bytesPerConnection / Math.max(raw.bytesPerConnection, 1)).toFixed(2)}x`,
        },
        '< 50 KiB',
        hub.bytesPerConnection < 50 * 1024,
      ),
    ];
  } finally {
    await clients.terminate();
  }
}

// `tsx bench/realtime-benchmarks.ts` prints the rows on their own.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const rows = await runRealtimeBenchmarks();
  process.stdout.write(
    `${rows.map((row) => `| ${row.what} | ${row.figure} | ${row.reference} | ${row.ratio} |`).join('\n')}\n`,
  );
}
