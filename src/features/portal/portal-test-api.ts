/** A scripted `callEndpoint` for the portal screens' tests: answers in order, per operation. */
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { vi } from 'vitest';

export const apiError = (status: number, message: string) =>
  Object.assign(new Error(message), {
    status,
    body: status === 0 ? null : { error: { code: 'X', message, requestId: 'r' } },
  });

export function fakePortalApi(answers: Record<string, ((input: never) => unknown)[]>) {
  const calls: { operation: string; input: unknown }[] = [];
  const callEndpoint = vi.fn((endpoint: { operation: string }, input: unknown) => {
    calls.push({ operation: endpoint.operation, input });
    const next = answers[endpoint.operation]?.shift();
    return Promise.resolve().then(() => {
      if (!next) throw new Error(`unexpected ${endpoint.operation}`);
      return next(input as never);
    });
  });
  return { callEndpoint: callEndpoint as unknown as CallEndpoint, calls };
}

/** A Storage over a Map, so each test has its own. */
export function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => void map.set(key, value),
  };
}
