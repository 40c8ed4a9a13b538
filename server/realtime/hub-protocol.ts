/**
 * The ASP.NET Core SignalR JSON hub protocol as @microsoft/signalr 10 speaks it
 * (../shared/research/protocols.md B5, B6): records are JSON objects each terminated by 0x1E; a
 * WebSocket frame may carry several records and a record may span frames. Every record a client
 * sends is parsed here with valibot before anything acts on it.
 */
import * as v from 'valibot';

export const RECORD_SEPARATOR = '\x1e';

/** ASP.NET's MaximumReceiveMessageSize default: one record may not exceed 32 KiB. */
export const DEFAULT_MAX_RECORD_BYTES = 32 * 1024;

export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
} as const;

// --- Handshake ------------------------------------------------------------------------------

export const handshakeRequestSchema = v.object({
  protocol: v.string(),
  version: v.pipe(v.number(), v.integer()),
});

/** The handshake record, or the exact error text the client shows ("Server returned handshake error: …"). */
export function parseHandshake(record: string): { ok: true } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(record);
  } catch {
    return { ok: false, error: 'The handshake request is not valid JSON.' };
  }
  const parsed = v.safeParse(handshakeRequestSchema, json);
  if (!parsed.success) {
    return {
      ok: false,
      error: 'The handshake request must be {"protocol":"json","version":1}.',
    };
  }
  const { protocol, version } = parsed.output;
  if (protocol !== 'json') {
    return { ok: false, error: `Requested protocol '${protocol}' is not available.` };
  }
  // Version 2 is stateful reconnect, which negotiate never offers (protocols.md B9).
  if (version !== 1) {
    return {
      ok: false,
      error: `The server does not support version ${version} of the 'json' protocol.`,
    };
  }
  return { ok: true };
}

export const HANDSHAKE_OK = `{}${RECORD_SEPARATOR}`;

export function handshakeError(error: string): string {
  return JSON.stringify({ error }) + RECORD_SEPARATOR;
}

// --- Hub messages (client to server) -------------------------------------------------------

const headers = v.optional(v.record(v.string(), v.string()));
const invocationId = v.pipe(v.string(), v.nonEmpty());
const target = v.pipe(v.string(), v.nonEmpty());

export const clientMessageSchema = v.variant('type', [
  v.object({
    type: v.literal(MessageType.Invocation),
    invocationId: v.optional(invocationId),
    target,
    arguments: v.array(v.unknown()),
    streamIds: v.optional(v.array(v.string())),
    headers,
  }),
  v.object({
    type: v.literal(MessageType.StreamItem),
    invocationId,
    item: v.unknown(),
    headers,
  }),
  v.object({
    type: v.literal(MessageType.Completion),
    invocationId,
    result: v.optional(v.unknown()),
    error: v.optional(v.string()),
    headers,
  }),
  v.object({
    type: v.literal(MessageType.StreamInvocation),
    invocationId,
    target,
    arguments: v.array(v.unknown()),
    streamIds: v.optional(v.array(v.string())),
    headers,
  }),
  v.object({ type: v.literal(MessageType.CancelInvocation), invocationId, headers }),
  v.object({ type: v.literal(MessageType.Ping) }),
  v.object({
    type: v.literal(MessageType.Close),
    error: v.nullish(v.string()),
    allowReconnect: v.optional(v.boolean()),
  }),
]);
export type ClientMessage = v.InferOutput<typeof clientMessageSchema>;

const typeOnlySchema = v.object({ type: v.number() });

/**
 * One record after the handshake: a message, `ignored` for a message type this server does not
 * take (the protocol says unknown types are skipped; 8/9 belong to stateful reconnect, never
 * negotiated), or an error that ends the connection like ASP.NET's InvalidDataException.
 */
export function parseClientMessage(
  record: string,
):
  | { kind: 'message'; message: ClientMessage }
  | { kind: 'ignored' }
  | { kind: 'invalid'; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(record);
  } catch {
    return { kind: 'invalid', error: 'A message was not valid JSON.' };
  }
  const typed = v.safeParse(typeOnlySchema, json);
  if (!typed.success) return { kind: 'invalid', error: 'A message had no numeric type.' };
  if (typed.output.type < MessageType.Invocation || typed.output.type > MessageType.Close) {
    return { kind: 'ignored' };
  }
  const parsed = v.safeParse(clientMessageSchema, json);
  if (!parsed.success) {
    return {
      kind: 'invalid',
      error: `A message of type ${typed.output.type} was malformed: ${parsed.issues[0].message}`,
    };
  }
  return { kind: 'message', message: parsed.output };
}

// --- Records out (server to client) --------------------------------------------------------

export const PING_RECORD = `{"type":6}${RECORD_SEPARATOR}`;

export function invocationRecord(targetName: string, args: readonly unknown[]): string {
  return (
    JSON.stringify({ type: MessageType.Invocation, target: targetName, arguments: args }) +
    RECORD_SEPARATOR
  );
}

export function completionRecord(
  id: string,
  outcome: { result: unknown } | { error: string } | null,
): string {
  return (
    JSON.stringify({ type: MessageType.Completion, invocationId: id, ...outcome }) +
    RECORD_SEPARATOR
  );
}

/**
 * Close message. Without allowReconnect the client stops for good and reports
 * "Server returned an error on close: <error>"; with it the client treats the close as a drop and
 * runs its reconnect policy (protocols.md B8).
 */
export function closeRecord(close: { error?: string; allowReconnect?: boolean }): string {
  return (
    JSON.stringify({
      type: MessageType.Close,
      ...(close.error === undefined ? {} : { error: close.error }),
      ...(close.allowReconnect ? { allowReconnect: true } : {}),
    }) + RECORD_SEPARATOR
  );
}

/** A record our own code produced: one JSON object and exactly one separator, at the end. */
export const outgoingRecordSchema = v.pipe(
  v.string(),
  v.startsWith('{'),
  v.endsWith(RECORD_SEPARATOR),
  v.check(
    (record) => record.indexOf(RECORD_SEPARATOR) === record.length - 1,
    'A record holds exactly one message.',
  ),
);

// --- Framing -------------------------------------------------------------------------------

export class RecordTooLargeError extends Error {
  constructor(maxBytes: number) {
    super(`The maximum message size of ${maxBytes}B was exceeded.`);
    this.name = 'RecordTooLargeError';
  }
}

/**
 * Splits incoming text into records. Holds a partial record between frames; a record (complete
 * or still growing) over `maxBytes` of UTF-8 throws RecordTooLargeError.
 */
export function createRecordReader(maxBytes: number) {
  let pending = '';
  // A string of n UTF-16 units is at most 3n UTF-8 bytes: only long strings need measuring.
  const tooLarge = (text: string) =>
    text.length * 3 > maxBytes && Buffer.byteLength(text, 'utf8') > maxBytes;

  return {
    push(text: string): string[] {
      const records: string[] = [];
      let data = pending + text;
      let end = data.indexOf(RECORD_SEPARATOR);
      while (end !== -1) {
        const record = data.slice(0, end);
        if (tooLarge(record)) throw new RecordTooLargeError(maxBytes);
        records.push(record);
        data = data.slice(end + 1);
        end = data.indexOf(RECORD_SEPARATOR);
      }
      if (tooLarge(data)) throw new RecordTooLargeError(maxBytes);
      pending = data;
      return records;
    },
  };
}
