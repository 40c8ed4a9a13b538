/**
 * The notification hub at /hubs/notifications: an ASP.NET Core SignalR server subset that the
 * unmodified @microsoft/signalr client talks to (../shared/research/protocols.md part B): negotiate
 * v1, the WebSocket transport, the JSON hub protocol, pings and timeouts, Close messages, groups.
 * Long polling, server-sent events, MessagePack and stateful reconnect are not offered.
 *
 * A connection's states:
 *   negotiated --(WebSocket upgrade with its token)--> handshake --(valid handshake)--> connected
 *   any state --> closing (Close message sent, socket closing) --> closed (forgotten)
 * A negotiated id unused for `negotiateTtlMs` is forgotten; a handshake not completed in
 * `handshakeTimeoutMs` fails. Group memberships belong to one connection and end with it; a
 * reconnecting client gets a new connection id and joins again (join-notification-group).
 *
 * With a backplane, group sends go through it (every process delivers to its own members, this
 * one included) and joins for a connection held by another process are forwarded to it.
 *
 * Sessions (embedded auth only, `sessions`): a hub token names the auth session it was issued
 * for; negotiate and the upgrade refuse it once that session is signed out, and a sign-out closes
 * the session's connections (Close without reconnect) on every process through the backplane.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { Hono } from 'hono';
import * as v from 'valibot';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { NOTIFICATION_HUB_PATH } from '#contract/realtime.ts';
import type { AppEnv } from '../http/app-env.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { Logger } from '../logger.ts';
import type { Backplane } from './backplane.ts';
import {
  closeRecord,
  completionRecord,
  createRecordReader,
  DEFAULT_MAX_RECORD_BYTES,
  HANDSHAKE_OK,
  handshakeError,
  invocationRecord,
  MessageType,
  outgoingRecordSchema,
  parseClientMessage,
  parseHandshake,
  PING_RECORD,
  RecordTooLargeError,
  type ClientMessage,
} from './hub-protocol.ts';
import type { HubTokens } from './hub-tokens.ts';

export interface HubTimings {
  /** Send a Ping when nothing else was sent for this long (the client drops us after 30 s). */
  keepAliveIntervalMs: number;
  /** Close a connection that sent nothing (not even a Ping) for this long. */
  clientTimeoutMs: number;
  handshakeTimeoutMs: number;
  /** A negotiated connection id that no WebSocket claimed within this time is forgotten. */
  negotiateTtlMs: number;
  /** How often timers are checked; one sweep over all connections, not a timer per connection. */
  tickMs: number;
  /** After a Close message, the socket is cut if the peer has not finished closing by then. */
  closeGraceMs: number;
  /** How long a join forwarded to another process may take. */
  joinTimeoutMs: number;
}

/** ASP.NET Core's defaults (HubOptionsSetup), which the client's 30 s server timeout assumes. */
export const DEFAULT_HUB_TIMINGS: HubTimings = {
  keepAliveIntervalMs: 15_000,
  clientTimeoutMs: 30_000,
  handshakeTimeoutMs: 15_000,
  negotiateTtlMs: 30_000,
  tickMs: 1_000,
  closeGraceMs: 2_000,
  joinTimeoutMs: 5_000,
};

/** A method clients may invoke; the hub the app uses has none (groups are joined over HTTP). */
export type HubMethod = (call: {
  connectionId: string;
  userId: string;
  args: unknown[];
}) => unknown;

/** What the hub needs to know about auth sessions (the embedded service's SessionCheck). */
export interface HubSessions {
  /** The session still exists and belongs to `userId`. */
  isActive(sessionId: string, userId: string): Promise<boolean>;
  /** Told when sessions are signed out in this process; returns an unsubscribe. */
  onSessionsEnded(listener: (sessionIds: readonly string[]) => void): () => void;
}

/** Thrown by a hub method: its message reaches the client (anything else is masked). */
export class HubMethodError extends Error {}

export interface NotificationHubDeps {
  logger: Logger;
  /** Where the app is reached; the hub URL and the allowed WebSocket Origin derive from it. */
  publicUrl: string;
  /** Further origins whose pages may open the hub (e.g. the Vite dev server). */
  allowedOrigins?: readonly string[];
  tokens: HubTokens;
  /**
   * Auth sessions to check hub tokens against (embedded mode). Absent (hosted mode): hub tokens
   * are trusted until they expire, and a token naming no session is accepted.
   */
  sessions?: HubSessions | null;
  /** Redis (or in-memory) pub/sub to span processes; null/absent: this process only. */
  backplane?: Backplane | null;
  timings?: Partial<HubTimings>;
  maxRecordBytes?: number;
  /** A client whose unsent data exceeds this is too slow to keep: it is dropped (may reconnect). */
  maxBufferedBytes?: number;
  /** Connections (negotiated or live) one user may hold on this process; more get 429. */
  maxConnectionsPerUser?: number;
  methods?: Readonly<Record<string, HubMethod>>;
}

export type JoinResult = 'joined' | 'not-found' | 'forbidden' | 'unavailable';

export interface NotificationHub {
  readonly path: string;
  /** Absolute hub URL handed to clients by notification-connect. */
  readonly url: string;
  /** The negotiate endpoint; mount it at `path`. */
  readonly app: Hono<AppEnv>;
  /** For the HTTP server's 'upgrade' event: answers every upgrade, hub path or not. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /**
   * A hub token for this user, naming the auth session of the access token that asked for it
   * (when it named one), so a sign-out of that session can close its connections.
   */
  issueAccessToken(identity: { userId: string; sessionId?: string | undefined }): Promise<string>;
  /** Closes the connections of these auth sessions on every process; refuses their tokens. */
  endSessions(sessionIds: readonly string[]): void;
  /** Adds a connection to a group if it is live and belongs to `userId` (on any process). */
  joinGroup(request: { connectionId: string; userId: string; group: string }): Promise<JoinResult>;
  /** Invokes `target(...args)` on every member of the group, on every process. */
  sendToGroup(group: string, target: string, args: readonly unknown[]): Promise<void>;
  /** Closes this process's matching connections with a Close message; returns how many. */
  closeConnections(
    filter: { userId?: string; connectionId?: string },
    close: { error?: string; allowReconnect: boolean },
  ): number;
  stats(): { connections: number; negotiated: number; groups: number };
  /** Refuses new connections, tells every client to reconnect (elsewhere), waits for the sockets. */
  shutdown(): Promise<void>;
}

type ConnectionState = 'negotiated' | 'handshake' | 'connected' | 'closing' | 'closed';

interface Connection {
  readonly id: string;
  readonly token: string;
  readonly userId: string;
  /** The auth session named by the hub token that opened it, if any. */
  readonly sessionId: string | null;
  state: ConnectionState;
  ws: WebSocket | null;
  /** When the state last changed to negotiated or handshake (for their timeouts). */
  since: number;
  lastReceivedAt: number;
  lastSentAt: number;
  readonly groups: Set<string>;
  readonly reader: ReturnType<typeof createRecordReader>;
  /** Removes this connection's backplane channel (forwarded joins), once subscribed. */
  unsubscribe: (() => Promise<void>) | null;
  closeTimer: NodeJS.Timeout | null;
}

interface GroupEntry {
  readonly members: Set<Connection>;
  /** Resolves once this process hears the group's backplane channel (null: no backplane). */
  readonly ready: Promise<(() => Promise<void>) | null>;
}

const joinRequestSchema = v.object({
  kind: v.literal('join'),
  requestId: v.string(),
  replyTo: v.string(),
  userId: v.string(),
  group: v.string(),
});
const joinReplySchema = v.object({
  kind: v.literal('join-result'),
  requestId: v.string(),
  result: v.picklist(['joined', 'not-found', 'forbidden', 'unavailable']),
});

const groupChannel = (group: string) => `group:${group}`;
const connectionChannel = (connectionId: string) => `connection:${connectionId}`;
const serverChannel = (serverId: string) => `server:${serverId}`;
const SESSIONS_ENDED_CHANNEL = 'sessions-ended';
const sessionsEndedSchema = v.object({
  kind: v.literal('sessions-ended'),
  sessionIds: v.array(v.string()),
});

const negotiateQuerySchema = v.object({
  negotiateVersion: v.optional(v.string()),
  access_token: v.optional(v.string()),
});

export function createNotificationHub(deps: NotificationHubDeps): NotificationHub {
  const timings: HubTimings = { ...DEFAULT_HUB_TIMINGS, ...deps.timings };
  const maxRecordBytes = deps.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  const maxBufferedBytes = deps.maxBufferedBytes ?? 4 * 1024 * 1024;
  const maxConnectionsPerUser = deps.maxConnectionsPerUser ?? 100;
  const backplane = deps.backplane ?? null;
  const log = deps.logger.child({ component: 'notification-hub' });
  const path = NOTIFICATION_HUB_PATH;
  const publicUrl = deps.publicUrl.replace(/\/+$/, '');
  const url = `${publicUrl}${path}`;
  const allowedOrigins = new Set([
    new URL(publicUrl).origin,
    ...(deps.allowedOrigins ?? []).map((o) => new URL(o).origin),
  ]);
  const methods = new Map(
    Object.entries(deps.methods ?? {}).map(([name, method]) => [name.toLowerCase(), method]),
  );
  const serverId = randomBytes(8).toString('hex');

  const byId = new Map<string, Connection>();
  const byToken = new Map<string, Connection>();
  const perUser = new Map<string, number>();
  const groups = new Map<string, GroupEntry>();
  const pendingJoins = new Map<string, (result: JoinResult) => void>();
  let stopping = false;

  const wss = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    perMessageDeflate: false,
    // Frames may batch many records (each limited to maxRecordBytes); this bounds one frame.
    maxPayload: 1024 * 1024,
  });

  const now = () => performance.now();

  // The reply channel for joins this process forwards to the process holding the connection.
  const serverChannelReady: Promise<(() => Promise<void>) | null> = backplane
    ? backplane.subscribe(serverChannel(serverId), onJoinReply)
    : Promise.resolve(null);
  serverChannelReady.catch((error: unknown) =>
    log.error({ err: error }, 'could not subscribe to the hub reply channel'),
  );

  // Sign-outs: this process's own arrive from `sessions`, other processes' through the backplane.
  const sessions = deps.sessions ?? null;
  const stopListeningToSessions = sessions?.onSessionsEnded((ids) => endSessions(ids)) ?? null;
  const sessionsChannelReady: Promise<(() => Promise<void>) | null> =
    backplane && sessions
      ? backplane.subscribe(SESSIONS_ENDED_CHANNEL, onSessionsEndedMessage)
      : Promise.resolve(null);
  sessionsChannelReady.catch((error: unknown) =>
    log.error({ err: error }, 'could not subscribe to the sessions channel'),
  );

  // Started by the first connection, so a hub that never serves one (API-only tests) runs no timer.
  let tick: NodeJS.Timeout | null = null;

  // --- Connections ---------------------------------------------------------------------------

  /** False when the user already holds the most connections allowed (tabs times devices). */
  function mayConnect(userId: string): boolean {
    return (perUser.get(userId) ?? 0) < maxConnectionsPerUser;
  }

  function newConnection(userId: string, sessionId: string | null): Connection {
    const connection: Connection = {
      id: randomBytes(16).toString('base64url'),
      token: randomBytes(16).toString('base64url'),
      userId,
      sessionId,
      state: 'negotiated',
      ws: null,
      since: now(),
      lastReceivedAt: now(),
      lastSentAt: now(),
      groups: new Set(),
      reader: createRecordReader(maxRecordBytes),
      unsubscribe: null,
      closeTimer: null,
    };
    byId.set(connection.id, connection);
    byToken.set(connection.token, connection);
    perUser.set(userId, (perUser.get(userId) ?? 0) + 1);
    if (!tick) {
      tick = setInterval(sweep, timings.tickMs);
      tick.unref();
    }
    return connection;
  }

  function send(connection: Connection, record: string): void {
    const { ws } = connection;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    if (ws.bufferedAmount > maxBufferedBytes) {
      log.warn({ connectionId: connection.id }, 'client too slow; dropping it');
      closeConnection(
        connection,
        closeRecord({ error: 'The client fell behind.', allowReconnect: true }),
      );
      return;
    }
    ws.send(record);
    connection.lastSentAt = now();
  }

  /** Sends `finalRecord` (a Close message or handshake error) if any, then closes the socket. */
  function closeConnection(connection: Connection, finalRecord: string | null): void {
    if (connection.state === 'closing' || connection.state === 'closed') return;
    connection.state = 'closing';
    forget(connection);
    const { ws } = connection;
    if (!ws) {
      connection.state = 'closed';
      return;
    }
    if (ws.readyState === WebSocket.OPEN) {
      if (finalRecord !== null) ws.send(finalRecord);
      ws.close(1000);
      connection.closeTimer = setTimeout(() => ws.terminate(), timings.closeGraceMs);
      connection.closeTimer.unref();
    } else {
      ws.terminate();
    }
  }

  /** Removes every trace of the connection except its socket; idempotent. */
  function forget(connection: Connection): void {
    if (byId.delete(connection.id)) {
      const count = (perUser.get(connection.userId) ?? 1) - 1;
      if (count > 0) perUser.set(connection.userId, count);
      else perUser.delete(connection.userId);
    }
    byToken.delete(connection.token);
    for (const group of connection.groups) leaveGroup(connection, group);
    connection.groups.clear();
    const { unsubscribe } = connection;
    connection.unsubscribe = null;
    if (unsubscribe) {
      unsubscribe().catch((error: unknown) =>
        log.warn({ err: error }, 'could not leave a connection channel'),
      );
    }
  }

  function sweep(): void {
    const at = now();
    for (const connection of byId.values()) {
      switch (connection.state) {
        case 'negotiated':
          if (at - connection.since > timings.negotiateTtlMs) forget(connection);
          break;
        case 'handshake':
          if (at - connection.since > timings.handshakeTimeoutMs) {
            closeConnection(connection, handshakeError('The handshake was not completed in time.'));
          }
          break;
        case 'connected':
          if (at - connection.lastReceivedAt > timings.clientTimeoutMs) {
            closeConnection(
              connection,
              closeRecord({
                error: `Nothing was received from the client for ${timings.clientTimeoutMs} ms.`,
                allowReconnect: true,
              }),
            );
          } else if (at - connection.lastSentAt >= timings.keepAliveIntervalMs - timings.tickMs) {
            // Early by up to one tick, so the gap between two sends never exceeds the interval.
            send(connection, PING_RECORD);
          }
          break;
        default:
          break;
      }
    }
  }

  // --- Negotiate -----------------------------------------------------------------------------

  const app = new Hono<AppEnv>();
  app.post('/negotiate', async (c) => {
    if (stopping) {
      throw new AppError(ErrorCode.UNAVAILABLE, 'The server is restarting; try again.', {
        headers: { 'Retry-After': '1' },
      });
    }
    if (!originAllowed(c.req.header('origin'))) {
      throw new AppError(ErrorCode.FORBIDDEN, 'This origin may not open the hub.');
    }
    const query = v.parse(negotiateQuerySchema, c.req.query());
    const token = bearerToken(c.req.header('authorization')) ?? query.access_token;
    const { userId, sessionId } = await authenticate(token);
    if (!mayConnect(userId)) {
      throw new AppError(ErrorCode.RATE_LIMITED, 'Too many hub connections; close some first.', {
        headers: { 'Retry-After': '30' },
      });
    }
    const connection = newConnection(userId, sessionId);
    log.debug({ connectionId: connection.id, userId }, 'negotiated');
    c.header('Cache-Control', 'no-store');
    return c.json({
      negotiateVersion: 1,
      connectionId: connection.id,
      connectionToken: connection.token,
      availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text'] }],
    });
  });

  async function authenticate(
    token: string | undefined,
  ): Promise<{ userId: string; sessionId: string | null }> {
    if (!token) {
      throw new AppError(
        ErrorCode.UNAUTHORIZED,
        'A hub access token is required: ask notification-connect for one.',
      );
    }
    const check = await checkToken(token);
    if (!check.ok) throw new AppError(ErrorCode.UNAUTHORIZED, check.reason);
    return check;
  }

  /** The token's signature and expiry, then (with `sessions`) that its session is signed in. */
  async function checkToken(token: string) {
    const check = await deps.tokens.verify(token);
    if (!check.ok || !sessions) return check;
    if (check.sessionId === null) {
      return {
        ok: false as const,
        reason: 'The hub token names no session; ask notification-connect for a new one.',
      };
    }
    if (!(await sessions.isActive(check.sessionId, check.userId))) {
      return { ok: false as const, reason: 'The session behind this hub token was signed out.' };
    }
    return check;
  }

  function originAllowed(origin: string | undefined): boolean {
    // Browsers always send Origin on WebSocket upgrades and cross-site POSTs; Node clients do not.
    return origin === undefined || allowedOrigins.has(origin);
  }

  // --- WebSocket upgrade ---------------------------------------------------------------------

  function handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    // A reset socket during the async checks must not become an uncaught 'error' event.
    socket.on('error', ignoreSocketError);
    upgrade(request, socket, head).catch((error: unknown) => {
      log.error({ err: error }, 'WebSocket upgrade failed');
      refuse(socket, 500, 'The connection could not be established.');
    });
  }

  async function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    // The URL may carry the access token: it is never logged.
    const target = new URL(request.url ?? '/', 'http://hub.invalid');
    if (target.pathname !== path && target.pathname !== `${path}/`) {
      refuse(socket, 404, `Nothing is served at ${target.pathname}.`);
      return;
    }
    if (request.headers.upgrade?.toLowerCase() !== 'websocket') {
      refuse(socket, 400, 'Only WebSocket upgrades are served here.');
      return;
    }
    if (stopping) {
      refuse(socket, 503, 'The server is restarting; try again.');
      return;
    }
    if (!originAllowed(request.headers.origin)) {
      refuse(socket, 403, 'This origin may not open the hub.');
      return;
    }
    const token =
      bearerToken(request.headers.authorization) ??
      target.searchParams.get('access_token') ??
      undefined;
    if (!token) {
      refuse(socket, 401, 'A hub access token is required: ask notification-connect for one.');
      return;
    }
    const check = await checkToken(token);
    if (!check.ok) {
      refuse(socket, 401, check.reason);
      return;
    }
    const id = target.searchParams.get('id');
    // No id: the client skipped negotiation; the spec says the connection starts on the spot.
    if (id === null && !mayConnect(check.userId)) {
      refuse(socket, 429, 'Too many hub connections; close some first.');
      return;
    }
    const connection = id === null ? newConnection(check.userId, check.sessionId) : byToken.get(id);
    if (!connection) {
      refuse(socket, 404, 'No such connection: negotiate again.');
      return;
    }
    if (connection.state !== 'negotiated') {
      refuse(socket, 409, 'This connection is already in use.');
      return;
    }
    if (connection.userId !== check.userId) {
      refuse(socket, 403, 'This connection was negotiated for another user.');
      return;
    }
    // Claimed synchronously after the checks: a second upgrade for this id now gets 409.
    connection.state = 'handshake';
    connection.since = now();
    if (backplane) {
      try {
        // Joins for this connection may arrive through any process: listen before it is usable.
        connection.unsubscribe = await backplane.subscribe(
          connectionChannel(connection.id),
          (message) => onForwardedJoin(connection, message),
        );
      } catch (error) {
        log.error({ err: error }, 'could not subscribe a connection channel');
        forget(connection);
        refuse(socket, 503, 'The hub cannot reach its backplane; try again.');
        return;
      }
    }
    if (socket.destroyed || stopping) {
      forget(connection);
      socket.destroy();
      return;
    }
    socket.off('error', ignoreSocketError);
    wss.handleUpgrade(request, socket, head, (ws) => attach(connection, ws));
  }

  function attach(connection: Connection, ws: WebSocket): void {
    if (connection.state !== 'handshake') {
      ws.terminate();
      return;
    }
    connection.ws = ws;
    connection.since = now();
    connection.lastReceivedAt = now();
    connection.lastSentAt = now();
    ws.on('message', (data, isBinary) => {
      try {
        onFrame(connection, data, isBinary);
      } catch (error) {
        // A bug here must cost one connection, never the process (this runs in an event handler).
        log.error({ err: error, connectionId: connection.id }, 'hub message handling failed');
        closeConnection(connection, closeRecord({ error: 'An unexpected error occurred.' }));
      }
    });
    ws.on('error', (error) =>
      log.debug({ err: error, connectionId: connection.id }, 'WebSocket error'),
    );
    ws.on('close', () => {
      if (connection.closeTimer) clearTimeout(connection.closeTimer);
      forget(connection);
      connection.state = 'closed';
      log.debug({ connectionId: connection.id }, 'disconnected');
    });
  }

  function onFrame(connection: Connection, data: RawData, isBinary: boolean): void {
    connection.lastReceivedAt = now();
    if (isBinary) {
      protocolError(connection, 'Binary messages are not part of the JSON hub protocol.');
      return;
    }
    let records: string[];
    try {
      records = connection.reader.push(rawText(data));
    } catch (error) {
      if (!(error instanceof RecordTooLargeError)) throw error;
      protocolError(connection, error.message);
      return;
    }
    for (const record of records) {
      if (connection.state === 'handshake') {
        const handshake = parseHandshake(record);
        if (!handshake.ok) {
          closeConnection(connection, handshakeError(handshake.error));
          return;
        }
        connection.state = 'connected';
        send(connection, HANDSHAKE_OK);
        log.debug({ connectionId: connection.id, userId: connection.userId }, 'connected');
        continue;
      }
      if (connection.state !== 'connected') return;
      const parsed = parseClientMessage(record);
      if (parsed.kind === 'ignored') continue;
      if (parsed.kind === 'invalid') {
        protocolError(connection, parsed.error);
        return;
      }
      onMessage(connection, parsed.message);
    }
  }

  /** Like ASP.NET on InvalidDataException: a Close with the reason, no reconnect. */
  function protocolError(connection: Connection, reason: string): void {
    log.info({ connectionId: connection.id, reason }, 'closing a connection on a protocol error');
    closeConnection(
      connection,
      closeRecord({ error: `Connection closed with an error. ${reason}` }),
    );
  }

  function onMessage(connection: Connection, message: ClientMessage): void {
    switch (message.type) {
      case MessageType.Invocation:
      case MessageType.StreamInvocation:
        invoke(connection, message);
        return;
      case MessageType.Close:
        // The client is leaving (stop()); it closes the socket itself right after.
        closeConnection(connection, null);
        return;
      default:
        // Ping (its arrival already reset the timeout), Cancel, and stream items or results,
        // which never occur because this hub neither streams nor asks clients for results.
        return;
    }
  }

  function invoke(connection: Connection, message: Extract<ClientMessage, { type: 1 | 4 }>): void {
    const { invocationId } = message;
    const reply = (outcome: { result: unknown } | { error: string } | null) => {
      if (invocationId !== undefined) send(connection, completionRecord(invocationId, outcome));
    };
    const method = methods.get(message.target.toLowerCase());
    if (!method) {
      reply({ error: `Unknown hub method '${message.target}'` });
      return;
    }
    if (message.type === MessageType.StreamInvocation || (message.streamIds?.length ?? 0) > 0) {
      reply({ error: `The hub method '${message.target}' does not stream.` });
      return;
    }
    Promise.resolve()
      .then(() =>
        method({ connectionId: connection.id, userId: connection.userId, args: message.arguments }),
      )
      .then(
        (result) => reply(result === undefined ? null : { result }),
        (error: unknown) => {
          if (error instanceof HubMethodError) {
            reply({ error: error.message });
            return;
          }
          log.error({ err: error, target: message.target }, 'hub method failed');
          reply({
            error: `An unexpected error occurred invoking '${message.target}' on the server.`,
          });
        },
      );
  }

  // --- Groups --------------------------------------------------------------------------------

  function deliverLocally(group: string, record: string): void {
    const entry = groups.get(group);
    if (!entry) return;
    for (const member of entry.members) send(member, record);
  }

  function onGroupMessage(group: string, message: string): void {
    if (!v.is(outgoingRecordSchema, message)) {
      log.warn({ group }, 'ignored a malformed record from the backplane');
      return;
    }
    deliverLocally(group, message);
  }

  async function joinLocally(connection: Connection, group: string): Promise<JoinResult> {
    let entry = groups.get(group);
    if (!entry) {
      const ready = backplane
        ? backplane.subscribe(groupChannel(group), (message) => onGroupMessage(group, message))
        : Promise.resolve(null);
      ready.catch(() => {}); // awaited below; this only marks the rejection as handled
      entry = { members: new Set(), ready };
      groups.set(group, entry);
    }
    entry.members.add(connection);
    connection.groups.add(group);
    try {
      await entry.ready;
      return 'joined';
    } catch (error) {
      log.error({ err: error, group }, 'could not subscribe a group channel');
      leaveGroup(connection, group);
      connection.groups.delete(group);
      // A failed subscription must not stay cached for later joins.
      if (groups.get(group) === entry && entry.members.size === 0) groups.delete(group);
      return 'unavailable';
    }
  }

  function leaveGroup(connection: Connection, group: string): void {
    const entry = groups.get(group);
    if (!entry?.members.delete(connection) || entry.members.size > 0) return;
    groups.delete(group);
    entry.ready
      .then((unsubscribe) => unsubscribe?.())
      .catch((error: unknown) =>
        log.warn({ err: error, group }, 'could not leave a group channel'),
      );
  }

  async function joinOwned(
    connection: Connection,
    userId: string,
    group: string,
  ): Promise<JoinResult> {
    if (connection.state !== 'connected') return 'not-found';
    if (connection.userId !== userId) return 'forbidden';
    return joinLocally(connection, group);
  }

  async function joinGroup(request: {
    connectionId: string;
    userId: string;
    group: string;
  }): Promise<JoinResult> {
    const local = byId.get(request.connectionId);
    if (local) return joinOwned(local, request.userId, request.group);
    if (!backplane) return 'not-found';
    // Another process may hold the connection: ask on its channel, wait for the reply.
    // Without the reply channel (backplane unreachable at start) no answer could arrive.
    if ((await serverChannelReady.catch(() => null)) === null) return 'unavailable';
    const requestId = randomUUID();
    const reply = new Promise<JoinResult>((resolve) => {
      const timer = setTimeout(() => {
        pendingJoins.delete(requestId);
        resolve('unavailable');
      }, timings.joinTimeoutMs);
      timer.unref();
      pendingJoins.set(requestId, (result) => {
        clearTimeout(timer);
        pendingJoins.delete(requestId);
        resolve(result);
      });
    });
    let receivers: number;
    try {
      receivers = await backplane.publish(
        connectionChannel(request.connectionId),
        JSON.stringify({
          kind: 'join',
          requestId,
          replyTo: serverId,
          userId: request.userId,
          group: request.group,
        }),
      );
    } catch (error) {
      log.error({ err: error }, 'could not forward a join');
      receivers = -1;
      pendingJoins.get(requestId)?.('unavailable');
    }
    if (receivers === 0) {
      // Nobody holds that connection: no process listens on its channel.
      pendingJoins.get(requestId)?.('not-found');
    }
    return reply;
  }

  function onForwardedJoin(connection: Connection, message: string): void {
    let json: unknown;
    try {
      json = JSON.parse(message);
    } catch {
      json = null;
    }
    const request = v.safeParse(joinRequestSchema, json);
    if (!request.success || !backplane) {
      log.warn('ignored a malformed join request from the backplane');
      return;
    }
    const { requestId, replyTo, userId, group } = request.output;
    void joinOwned(connection, userId, group)
      .then((result) =>
        backplane.publish(
          serverChannel(replyTo),
          JSON.stringify({ kind: 'join-result', requestId, result }),
        ),
      )
      .catch((error: unknown) => log.error({ err: error }, 'could not answer a forwarded join'));
  }

  function onJoinReply(message: string): void {
    let json: unknown;
    try {
      json = JSON.parse(message);
    } catch {
      json = null;
    }
    const reply = v.safeParse(joinReplySchema, json);
    if (!reply.success) {
      log.warn('ignored a malformed join reply from the backplane');
      return;
    }
    pendingJoins.get(reply.output.requestId)?.(reply.output.result);
  }

  async function sendToGroup(group: string, target: string, args: readonly unknown[]) {
    const record = invocationRecord(target, args);
    // With a backplane this process hears its own publish and delivers to its members then.
    if (backplane) await backplane.publish(groupChannel(group), record);
    else deliverLocally(group, record);
  }

  // --- Lifecycle -----------------------------------------------------------------------------

  function closeConnections(
    filter: { userId?: string; connectionId?: string },
    close: { error?: string; allowReconnect: boolean },
  ): number {
    let closed = 0;
    for (const connection of [...byId.values()]) {
      if (filter.userId !== undefined && connection.userId !== filter.userId) continue;
      if (filter.connectionId !== undefined && connection.id !== filter.connectionId) continue;
      if (connection.state !== 'connected') continue;
      closeConnection(connection, closeRecord(close));
      closed += 1;
    }
    return closed;
  }

  /** Closes this process's connections of these sessions (any state); no reconnect offered. */
  function closeSessions(sessionIds: readonly string[]): void {
    const ended = new Set(sessionIds);
    for (const connection of [...byId.values()]) {
      if (connection.sessionId === null || !ended.has(connection.sessionId)) continue;
      closeConnection(
        connection,
        connection.state === 'connected'
          ? closeRecord({ error: 'Signed out.', allowReconnect: false })
          : null,
      );
    }
  }

  function endSessions(sessionIds: readonly string[]): void {
    if (sessionIds.length === 0) return;
    closeSessions(sessionIds);
    if (!backplane) return;
    backplane
      .publish(
        SESSIONS_ENDED_CHANNEL,
        JSON.stringify({ kind: 'sessions-ended', sessionIds: [...sessionIds] }),
      )
      .catch((error: unknown) => log.error({ err: error }, 'could not publish ended sessions'));
  }

  function onSessionsEndedMessage(message: string): void {
    let json: unknown;
    try {
      json = JSON.parse(message);
    } catch {
      json = null;
    }
    const parsed = v.safeParse(sessionsEndedSchema, json);
    if (!parsed.success) {
      log.warn('ignored a malformed sessions message from the backplane');
      return;
    }
    closeSessions(parsed.output.sessionIds);
  }

  async function shutdown(): Promise<void> {
    if (stopping) return;
    stopping = true;
    if (tick) clearInterval(tick);
    stopListeningToSessions?.();
    const sockets: Promise<void>[] = [];
    for (const connection of [...byId.values()]) {
      const { ws } = connection;
      if (ws && ws.readyState !== WebSocket.CLOSED) {
        sockets.push(new Promise((resolve) => ws.once('close', () => resolve())));
      }
      closeConnection(
        connection,
        connection.state === 'connected'
          ? closeRecord({ error: 'Server is shutting down.', allowReconnect: true })
          : null,
      );
    }
    for (const resolve of [...pendingJoins.values()]) resolve('unavailable');
    // Each socket is cut after closeGraceMs at the latest, so this wait is bounded.
    await Promise.all(sockets);
    const unsubscribe = await serverChannelReady.catch(() => null);
    await unsubscribe?.();
    const unsubscribeSessions = await sessionsChannelReady.catch(() => null);
    await unsubscribeSessions?.();
    log.info('hub stopped');
  }

  return {
    path,
    url,
    app,
    handleUpgrade,
    issueAccessToken: (identity) =>
      deps.tokens.sign(identity.userId, undefined, identity.sessionId),
    endSessions,
    joinGroup,
    sendToGroup,
    closeConnections,
    stats: () => {
      let negotiated = 0;
      for (const connection of byId.values())
        if (connection.state === 'negotiated') negotiated += 1;
      return { connections: byId.size - negotiated, negotiated, groups: groups.size };
    },
    shutdown,
  };
}

function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

function ignoreSocketError(): void {}

/** Answers a refused upgrade with a plain HTTP response (the client shows the status). */
function refuse(socket: Duplex, status: number, message: string): void {
  if (socket.destroyed) return;
  const body = `${message}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
