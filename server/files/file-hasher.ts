/**
 * SHA-256 of staged uploads, computed on a worker thread while the upload is still arriving: the
 * upload route says how many bytes of a staged file are final (`follow`) as its writes land, the
 * worker reads them back (from the page cache, just written) and hashes them, and the commit asks
 * for the digest (`digest`), which waits only for the bytes not hashed yet. The event loop, which
 * receives the bytes and serves every other request, never hashes.
 *
 * The worker hashes the staged file, not the network's chunks: bytes of a staged file below its
 * size never change (tus only appends at the end), so a hash followed across PATCHes, failed
 * writes and resumes is the file's. What the worker lost (it stopped, the process restarted) is
 * hashed again from the first byte at `digest`: slower, never wrong.
 */
import { Worker } from 'node:worker_threads';

/** The worker, as plain JavaScript: it runs the same under tsx, vitest and a build. */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { closeSync, openSync, readSync, statSync } = require('node:fs');
const { createHash } = require('node:crypto');
const buffer = Buffer.allocUnsafe(${1024 * 1024});
/** id -> { file, hash, at: bytes hashed } */
const files = new Map();

/** Hashes the file's bytes [at, size); throws when the file holds fewer. */
function catchUp(state, size) {
  if (state.at >= size) return;
  const fd = openSync(state.file, 'r');
  try {
    while (state.at < size) {
      const n = readSync(fd, buffer, 0, Math.min(buffer.length, size - state.at), state.at);
      if (n === 0) throw new Error('The staged file holds ' + state.at + ' bytes, not ' + size + '.');
      state.hash.update(buffer.subarray(0, n));
      state.at += n;
    }
  } finally {
    closeSync(fd);
  }
}

function stateOf(id, file) {
  let state = files.get(id);
  if (!state || state.file !== file) {
    state = { file, hash: createHash('sha256'), at: 0 };
    files.set(id, state);
  }
  return state;
}

parentPort.on('message', (message) => {
  const { type, id, file, size } = message;
  if (type === 'forget') {
    files.delete(id);
    return;
  }
  try {
    if (type === 'digest') {
      const held = statSync(file).size;
      if (held !== size) throw new Error('The staged file holds ' + held + ' bytes, not ' + size + '.');
    }
    const state = stateOf(id, file);
    catchUp(state, size);
    if (type === 'digest') {
      files.delete(id);
      parentPort.postMessage({ request: message.request, digest: state.hash.digest('hex') });
    }
  } catch (error) {
    // A hash that failed is dropped: a later digest starts again from the first byte.
    files.delete(id);
    if (type === 'digest') {
      parentPort.postMessage({ request: message.request, error: String(error && error.message) });
    }
  }
});
`;

export interface FileHasher {
  /** Bytes [0, size) of the staged file are final: they may be hashed now. Returns at once. */
  follow(id: string, file: string, size: number): void;
  /** The SHA-256 (hex) of the staged file's `size` bytes (all of it); rejects if it holds other. */
  digest(id: string, file: string, size: number): Promise<string>;
  /** Drops what was hashed of the upload (terminated, expired, refused). */
  forget(id: string): void;
  /** Stops the worker (a later call starts another). */
  close(): Promise<void>;
}

type Reply = { request: number; digest: string } | { request: number; error: string };

export function createFileHasher(): FileHasher {
  let worker: Worker | null = null;
  let nextRequest = 1;
  const pending = new Map<
    number,
    { resolve: (digest: string) => void; reject: (e: Error) => void }
  >();

  function failPending(error: Error): void {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  }

  function running(): Worker {
    if (worker) return worker;
    const started = new Worker(WORKER_SOURCE, { eval: true });
    started.on('message', (reply: Reply) => {
      const waiting = pending.get(reply.request);
      if (!waiting) return;
      pending.delete(reply.request);
      if ('digest' in reply) waiting.resolve(reply.digest);
      else waiting.reject(new Error(reply.error));
    });
    // A worker that died takes its hashes with it; the next call starts a fresh one.
    const lost = (error: Error) => {
      if (worker === started) worker = null;
      failPending(error);
    };
    started.on('error', lost);
    started.on('exit', (code) => lost(new Error(`The hashing worker stopped (${code}).`)));
    // Idle, it never keeps the process alive; a digest awaited keeps it referenced.
    started.unref();
    worker = started;
    return started;
  }

  return {
    follow(id, file, size) {
      running().postMessage({ type: 'follow', id, file, size });
    },

    digest(id, file, size) {
      const request = nextRequest;
      nextRequest += 1;
      const target = running();
      return new Promise<string>((resolve, reject) => {
        pending.set(request, { resolve, reject });
        target.ref();
        target.postMessage({ type: 'digest', id, file, size, request });
      }).finally(() => {
        if (pending.size === 0) worker?.unref();
      });
    },

    forget(id) {
      worker?.postMessage({ type: 'forget', id });
    },

    async close() {
      const stopping = worker;
      worker = null;
      failPending(new Error('The hashing worker was closed.'));
      await stopping?.terminate();
    },
  };
}

let shared: FileHasher | null = null;

/** The process's hasher: one worker for every upload route (it starts at the first upload). */
export function sharedFileHasher(): FileHasher {
  shared ??= createFileHasher();
  return shared;
}
