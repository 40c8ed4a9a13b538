/**
 * Test-only fakes for the files code: a tiny in-memory tus 1.0 server behind tus-js-client's
 * HttpStack seam (creation, HEAD, PATCH, termination, a cut connection, refusals), a network
 * switch, and Blob-keeping for fake-indexeddb (jsdom's Blob is not one Node's structuredClone
 * knows, so a stored Blob would come back as {}; a Blob is immutable, so the same object back is
 * what a browser's IndexedDB gives in effect).
 */
import type { HttpRequest, HttpResponse, HttpStack } from 'tus-js-client';
import { UPLOADED_FILE_ID_HEADER } from '#contract/endpoints/file.ts';
import type { NetworkStatus } from './upload-runner.ts';

export function keepBlobsInFakeIndexedDb(): () => void {
  const original = globalThis.structuredClone;
  globalThis.structuredClone = (value: unknown, options?: StructuredSerializeOptions) => {
    if (value instanceof Blob) return value;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const blobs = Object.entries(value).filter(([, item]) => item instanceof Blob);
      if (blobs.length > 0) {
        const rest: Record<string, unknown> = { ...(value as Record<string, unknown>) };
        for (const [key] of blobs) delete rest[key];
        const cloned = original(rest, options);
        for (const [key, blob] of blobs) cloned[key] = blob;
        return cloned;
      }
    }
    return original(value, options);
  };
  return () => {
    globalThis.structuredClone = original;
  };
}

export interface FakeUpload {
  id: string;
  length: number;
  offset: number;
  metadata: Record<string, string>;
  chunks: Blob[];
}

export interface FakeRequestLog {
  method: string;
  url: string;
  headers: Record<string, string>;
}

export interface FakeTusServer {
  httpStack: HttpStack;
  uploads: Map<string, FakeUpload>;
  requests: FakeRequestLog[];
  terminated: string[];
  /** No answer to anything (the request fails like a dropped connection). */
  offline: boolean;
  /** The next PATCH takes this many bytes, then the connection drops. */
  cutNextPatchAt: number | null;
  /** PATCHes report half their bytes, then wait for release(). */
  holdPatches: boolean;
  release(): void;
  /** The next request of this method is answered with this status and error body. */
  refuseNext(method: string, status: number, message: string, details?: unknown): void;
  /** The bytes an upload holds, as text. */
  textOf(id: string): Promise<string>;
}

const decodeMetadata = (header: string | undefined): Record<string, string> =>
  Object.fromEntries(
    (header ?? '')
      .split(',')
      .filter(Boolean)
      .map((pair) => {
        const [key = '', value = ''] = pair.trim().split(' ');
        return [key, value ? atob(value) : ''];
      }),
  );

export function createFakeTusServer(options: { fileIdFor?: (upload: FakeUpload) => string } = {}) {
  const server: FakeTusServer = {
    uploads: new Map(),
    requests: [],
    terminated: [],
    offline: false,
    cutNextPatchAt: null,
    holdPatches: false,
    release: () => {
      for (const resume of held.splice(0)) resume();
    },
    refuseNext(method, status, message, details) {
      refusals.set(method, { status, message, details });
    },
    textOf: async (id) => new Blob(server.uploads.get(id)?.chunks ?? []).text(),
    httpStack: { createRequest: (method, url) => request(method, url), getName: () => 'fake-tus' },
  };
  const held: (() => void)[] = [];
  const refusals = new Map<string, { status: number; message: string; details?: unknown }>();
  let next = 1;

  const respond = (
    status: number,
    headers: Record<string, string> = {},
    body = '',
  ): HttpResponse => {
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    return {
      getStatus: () => status,
      getHeader: (name) => lower[name.toLowerCase()],
      getBody: () => body,
      getUnderlyingObject: () => null,
    };
  };

  function request(method: string, url: string): HttpRequest {
    const headers: Record<string, string> = {};
    let onProgress: (bytes: number) => void = () => {};
    let aborted = false;
    return {
      getMethod: () => method,
      getURL: () => url,
      setHeader: (name, value) => {
        headers[name] = value;
      },
      getHeader: (name) => headers[name],
      setProgressHandler: (handler) => {
        onProgress = handler;
      },
      abort: () => {
        aborted = true;
        return Promise.resolve();
      },
      getUnderlyingObject: () => null,
      async send(body: unknown) {
        await Promise.resolve();
        server.requests.push({ method, url, headers: { ...headers } });
        if (server.offline || aborted) throw new Error('Network request failed');
        const refusal = refusals.get(method);
        if (refusal) {
          refusals.delete(method);
          const { message, details } = refusal;
          const error = { error: { code: 'REFUSED', message, details, requestId: 'r1' } };
          return respond(refusal.status, { 'Tus-Resumable': '1.0.0' }, JSON.stringify(error));
        }
        const id = url.split('/').pop() ?? '';
        const upload = server.uploads.get(id);
        switch (method) {
          case 'POST': {
            const created: FakeUpload = {
              id: `u${next++}`,
              length: Number(headers['Upload-Length']),
              offset: 0,
              metadata: decodeMetadata(headers['Upload-Metadata']),
              chunks: [],
            };
            server.uploads.set(created.id, created);
            return respond(201, { Location: `/files/uploads/${created.id}` });
          }
          case 'HEAD':
            if (!upload) return respond(404);
            return respond(200, {
              'Upload-Offset': String(upload.offset),
              'Upload-Length': String(upload.length),
            });
          case 'DELETE':
            if (!upload) return respond(404);
            server.uploads.delete(id);
            server.terminated.push(id);
            return respond(204);
          case 'PATCH': {
            if (!upload) return respond(404);
            if (Number(headers['Upload-Offset']) !== upload.offset) return respond(409);
            let chunk = body as Blob;
            if (server.holdPatches) {
              onProgress(Math.floor(chunk.size / 2));
              await new Promise<void>((resolve) => held.push(resolve));
              if (aborted) throw new Error('aborted');
            }
            const cut = server.cutNextPatchAt;
            if (cut !== null) {
              server.cutNextPatchAt = null;
              chunk = chunk.slice(0, cut);
              upload.chunks.push(chunk);
              upload.offset += chunk.size;
              onProgress(chunk.size);
              throw new Error('Network connection lost');
            }
            upload.chunks.push(chunk);
            upload.offset += chunk.size;
            onProgress(chunk.size);
            const finished = upload.offset === upload.length;
            return respond(204, {
              'Upload-Offset': String(upload.offset),
              ...(finished
                ? {
                    [UPLOADED_FILE_ID_HEADER]:
                      options.fileIdFor?.(upload) ?? upload.metadata.fileId ?? upload.id,
                  }
                : {}),
            });
          }
          default:
            return respond(405);
        }
      },
    };
  }
  return server;
}

/** A network switch: tests go offline and back. */
export function createFakeNetwork(online = true): NetworkStatus & { set(online: boolean): void } {
  const listeners = new Set<() => void>();
  let state = online;
  return {
    isOnline: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      state = next;
      for (const listener of listeners) listener();
    },
  };
}
