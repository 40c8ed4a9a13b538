/**
 * The app's only data fetch: calls an operation declared in the contract, with inputs and outputs
 * checked against its schemas. A failure rejects with an ApiError whose `body` is the server's
 * response body, or whose message is 'Something went wrong!' when there is no usable body
 * (spec section 8).
 */
import * as v from 'valibot';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { GENERIC_ERROR_MESSAGE, errorBodySchema, type ErrorBody } from '#contract/errors.ts';

export class ApiError extends Error {
  /** HTTP status, or 0 when no response arrived (offline, DNS, CORS). */
  readonly status: number;
  /** The server's response body when it was the contract's error shape, else null. */
  readonly body: ErrorBody | null;
  /** Set when the call failed before reaching the server (bad input or no network). */
  readonly cause?: unknown;

  constructor(status: number, body: ErrorBody | null, cause?: unknown) {
    super(body?.error.message ?? GENERIC_ERROR_MESSAGE);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    if (cause !== undefined) this.cause = cause;
  }

  get code(): string | null {
    return this.body?.error.code ?? null;
  }
}

export interface ApiClientOptions {
  /** Origin of the server; '' means the page's own origin. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Current access token, or null when signed out. */
  getAccessToken?: () => Promise<string | null>;
}

export type { CallEndpoint };

export function createApiClient(options: ApiClientOptions): { callEndpoint: CallEndpoint } {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);

  const callEndpoint: CallEndpoint = async (endpoint, input, callOptions = {}) => {
    const query = v.safeParse(endpoint.query, input.query);
    if (!query.success) throw new ApiError(400, localValidationError(query.issues), query.issues);

    const params = new URLSearchParams({ endpoint: endpoint.operation });
    for (const [key, value] of Object.entries(input.query as Record<string, unknown>)) {
      if (value === undefined) continue;
      // Arrays travel as repeated keys (spec section 7).
      for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
    }
    const headers = new Headers({ Accept: 'application/json' });
    const token = options.getAccessToken ? await options.getAccessToken() : null;
    if (token) headers.set('Authorization', `Bearer ${token}`);
    if (callOptions.idempotencyKey) headers.set('Idempotency-Key', callOptions.idempotencyKey);
    let body: string | undefined;
    if (endpoint.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(input.body ?? null);
    }

    let response: Response;
    try {
      response = await doFetch(`${options.baseUrl}/api/${endpoint.resource}?${params.toString()}`, {
        method: endpoint.method,
        headers,
        ...(body === undefined ? {} : { body }),
        ...(callOptions.signal ? { signal: callOptions.signal } : {}),
      });
    } catch (error) {
      throw new ApiError(0, null, error);
    }

    const text = await response.text().catch(() => '');
    const json = parseJson(text);
    if (!response.ok) {
      const parsed = v.safeParse(errorBodySchema, json);
      throw new ApiError(response.status, parsed.success ? parsed.output : null);
    }
    if (response.status === 204) return undefined;
    const output = v.safeParse(endpoint.output, json);
    if (!output.success) throw new ApiError(response.status, null, output.issues);
    return output.output;
  };

  return { callEndpoint };
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function localValidationError(issues: readonly v.BaseIssue<unknown>[]): ErrorBody {
  return {
    error: {
      code: 'VALIDATION_FAILED',
      message: issues[0]?.message ?? 'Invalid input.',
      details: issues.map((issue) => ({
        path: ['query', ...(issue.path?.map((p) => String(p.key)) ?? [])].join('.'),
        message: issue.message,
      })),
      requestId: 'local',
    },
  };
}
