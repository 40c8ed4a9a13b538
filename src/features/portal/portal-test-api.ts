/** A scripted `callEndpoint` for the portal screens' tests: answers in order, per operation. */
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { PortalChangeRequest } from '#contract/endpoints/client-portal.ts';
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

/** A change request as the portal answers it; `overrides` set what a test is about. */
export function portalChangeRequest(
  overrides: Partial<PortalChangeRequest> & Pick<PortalChangeRequest, 'id' | 'title'>,
): PortalChangeRequest {
  return {
    description: null,
    desiredDate: null,
    status: 'submitted',
    costImpact: null,
    currency: 'EUR',
    scheduleImpactDays: null,
    answer: null,
    clientDecision: null,
    source: 'portal',
    attachmentFileIds: [],
    createdAt: '2026-03-12T10:00:00.000Z',
    updatedAt: '2026-03-12T10:00:00.000Z',
    ...overrides,
  };
}

/**
 * `navigator.onLine` under the test's control; `set` also fires `online`/`offline` on the window,
 * as a browser does. Restore with `vi.restoreAllMocks()`.
 */
export function fakeBrowserOnline(initial: boolean) {
  let online = initial;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  return {
    set(next: boolean) {
      online = next;
      window.dispatchEvent(new Event(next ? 'online' : 'offline'));
    },
  };
}
