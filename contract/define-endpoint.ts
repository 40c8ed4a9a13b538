import * as v from 'valibot';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Who may call an operation: `public` anyone, `user` a bearer access token,
 * `portal` a client-portal session cookie.
 */
export type EndpointAuth = 'public' | 'user' | 'portal';

// Valibot schemas of any shape; kept loose here so each declaration keeps its precise type.
type AnySchema = v.GenericSchema<unknown, unknown>;

/**
 * One operation of the API: `METHOD /api/<resource>?endpoint=<operation>`.
 * `query` validates the query string (all values arrive as strings, repeated keys as arrays);
 * `body` validates the JSON body (mutations only).
 */
export interface EndpointDefinition<
  Q extends AnySchema = AnySchema,
  B extends AnySchema | undefined = AnySchema | undefined,
  O extends AnySchema = AnySchema,
  R extends string = string,
  Op extends string = string,
  A extends EndpointAuth = EndpointAuth,
> {
  readonly resource: R;
  readonly operation: Op;
  readonly method: HttpMethod;
  readonly auth: A;
  readonly summary: string;
  readonly query: Q;
  readonly body: B;
  readonly output: O;
  /** Successful HTTP status; 200 unless stated. */
  readonly status: 200 | 201 | 202 | 204;
  /**
   * The answer holds a secret shown once (a feed URL's token): never stored for an
   * Idempotency-Key replay, where it would sit in the database in the clear.
   */
  readonly secretOutput?: true;
}

export function defineEndpoint<
  const R extends string,
  const Op extends string,
  const A extends EndpointAuth,
  Q extends AnySchema,
  B extends AnySchema | undefined,
  O extends AnySchema,
>(def: {
  resource: R;
  operation: Op;
  method: HttpMethod;
  auth: A;
  summary: string;
  query: Q;
  body?: B;
  output: O;
  status?: 200 | 201 | 202 | 204;
  secretOutput?: true;
}): EndpointDefinition<Q, B, O, R, Op, A> {
  return { ...def, body: def.body as B, status: def.status ?? 200 };
}

/** An empty query object (the `endpoint` key itself is not part of an operation's query). */
export const emptyQuerySchema = v.strictObject({});

export type EndpointQuery<E extends EndpointDefinition> = v.InferInput<E['query']>;
export type EndpointBody<E extends EndpointDefinition> = E['body'] extends AnySchema
  ? v.InferInput<E['body']>
  : undefined;
export type EndpointOutput<E extends EndpointDefinition> = v.InferOutput<E['output']>;

export interface CallOptions {
  /** UUID; the server applies a mutation with the same key and payload once. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/**
 * Calls one declared operation. Implemented by src/api-client; screens that may call the API
 * directly (public forms, which are not synced data) receive it through the router context.
 */
export type CallEndpoint = <E extends EndpointDefinition>(
  endpoint: E,
  input: { query: v.InferInput<E['query']>; body?: EndpointBody<E> },
  options?: CallOptions,
) => Promise<v.InferOutput<E['output']>>;
