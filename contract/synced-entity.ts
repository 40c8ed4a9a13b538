/**
 * One declaration per synced entity (ARCHITECTURE.md "Adding a synced entity"). An entity is
 * declared once, with `defineSyncedEntity`, and listed in parent order in
 * contract/synced-entities.ts. Its row, create and update schemas and its five CRUD operations are
 * derived here; the server's handlers and pull reader, the device's table, apply, purge,
 * settlement and the sync issue words derive from the same object. Nothing below the app names an
 * entity, so an entity that is not declared cannot half-exist.
 *
 * Invariants a declaration relies on:
 * - Every entity row has id, workspaceId, createdAt/By, updatedAt/By and version (the change-log
 *   seq of its last write); a child also has its parent's id under `parent.key`.
 * - The row schema is the input schemas with their checks dropped (`loosen`): a device keeps a
 *   row the server sends even after a rule tightens, and a field a newer server adds survives.
 * - Cross-field rules are checked on create, on a patch alone, and on the row a patch would make
 *   (on the device before queueing, and on the server inside the locked update).
 */
import * as v from 'valibot';
import { defineEndpoint, type EndpointDefinition } from './define-endpoint.ts';
import { idSchema } from './entities/ids.ts';
import { text } from './text.ts';

type AnySchema = v.GenericSchema<unknown, unknown>;

/** How a column is stored, where the SQL needs a cast on write or a conversion on read. */
export type SqlCodec = 'date' | 'numeric' | 'jsonb' | 'bigint';

/** A default may be written as a literal (`[]` is a readonly tuple under `const`). */
type Frozen<T> = T extends readonly (infer I)[] ? readonly I[] : T;

export interface FieldOptions<S extends AnySchema> {
  /** What a create that leaves the field out gets; without one, a create must give it. */
  readonly default?: Frozen<v.InferOutput<S>>;
  /** false: set when created (or by a special operation), never by `update-x`. */
  readonly editable?: false;
  /** false: not accepted by `create-x`; a new row holds `default` (the column's SQL default). */
  readonly create?: false;
  /** Storage that needs a cast or conversion (see SqlCodec); plain text, booleans need none. */
  readonly sql?: SqlCodec;
  /** Column name, when not the field's name in snake_case. */
  readonly column?: string;
  /** The field in words for the sync issues panel, when not its name split and lower-cased. */
  readonly word?: string;
  /** Words for the values of a choice field ("on_hold" is "On hold"). */
  readonly values?: Readonly<Record<string, string>>;
}

export type FieldDef<
  S extends AnySchema = AnySchema,
  O extends FieldOptions<S> = FieldOptions<S>,
> = { readonly schema: S } & O;

/** One field of an entity: its input schema (create and update) and how it is stored. */
export function field<S extends AnySchema, const O extends FieldOptions<S> = object>(
  schema: S,
  options?: O,
): FieldDef<S, O> {
  return { schema, ...(options ?? ({} as O)) };
}

export interface ParentDef<E extends string = string, K extends string = string> {
  /** The parent entity's name (declared before this one). */
  readonly entity: E;
  /** The row's field holding the parent's id. */
  readonly key: K;
  /**
   * cascade: the children go with their parent, on the server and on every device.
   * confirm: the same, but a parent with children is deleted only with `cascade=true` (the app
   * asks first: deleting a client with projects loses real work).
   */
  readonly onDelete: 'cascade' | 'confirm';
  /** The row may move to another parent (`update-x` accepts the key). */
  readonly editable?: boolean;
}

/** A rule across fields. `test` sees the fields at hand; a missing one must pass. */
export interface RowRule {
  readonly path: string;
  readonly message: string;
  readonly test: (row: Readonly<Record<string, unknown>>) => boolean;
}

type Fields = Readonly<Record<string, FieldDef>>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
export type Camel<S extends string> = S extends `${infer H}-${infer T}`
  ? `${H}${Capitalize<Camel<T>>}`
  : S;

type In<F> = F extends FieldDef<infer S> ? v.InferInput<S> : never;
type Out<F> = F extends FieldDef<infer S> ? v.InferOutput<S> : never;
type ParentKey<P> = P extends { key: infer K extends string } ? K : never;
type MovableKey<P> = P extends { editable: true; key: infer K extends string } ? K : never;
type Creatable<F> = { [K in keyof F]: F[K] extends { create: false } ? never : K }[keyof F];
type Defaulted<F> = { [K in keyof F]: F[K] extends { default: unknown } ? K : never }[keyof F];
type Editable<F> = { [K in keyof F]: F[K] extends { editable: false } ? never : K }[keyof F];

export interface BaseRow {
  id: string;
  workspaceId: string;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
  /** Change-log sequence of the last write (the sync cursor position of this row). */
  version: number;
}
export type RowOf<F, P> = Simplify<
  BaseRow & { [K in ParentKey<P>]: string } & { -readonly [K in keyof F]: Out<F[K]> }
>;
export type CreateInputOf<F, P> = Simplify<
  { id: string; workspaceId: string } & { [K in ParentKey<P>]: string } & {
    -readonly [K in Exclude<Creatable<F>, Defaulted<F>>]: In<F[K]>;
  } & { -readonly [K in Extract<Creatable<F>, Defaulted<F>>]?: In<F[K]> | undefined }
>;
export type CreateOutputOf<F, P> = Simplify<
  { id: string; workspaceId: string } & { [K in ParentKey<P>]: string } & {
    -readonly [K in Creatable<F>]: Out<F[K]>;
  }
>;
export type UpdateInputOf<F, P> = Simplify<
  { -readonly [K in Editable<F>]?: In<F[K]> } & { [K in MovableKey<P>]?: string }
>;
export type UpdateOutputOf<F, P> = Simplify<
  { -readonly [K in Editable<F>]?: Out<F[K]> } & { [K in MovableKey<P>]?: string }
>;

const byIdQuery = v.strictObject({ id: idSchema });
const deleteQuery = v.strictObject({
  id: idSchema,
  cascade: v.optional(v.picklist(['true', 'false'], 'cascade is true or false')),
});
const deletedOutput = v.object({ deleted: v.literal(true), id: text() });
type ListQuery = Record<string, string | undefined>;

export interface SyncedEntityDeclaration<
  N extends string,
  PL extends string,
  R extends string,
  F extends Fields,
  P extends ParentDef | undefined,
  LK extends string = Camel<PL>,
> {
  /** Entity name, kebab-case singular: operations are `create-<name>`, `update-<name>`... */
  readonly name: N;
  /** Kebab-case plural: the list operation `get-<plural>`; camelCased, the device's table. */
  readonly plural: PL;
  /** The API resource (`/api/<resource>`), when not the name. */
  readonly resource?: R;
  /** The list operation's output key (`{events}`), when not the plural camelCased. */
  readonly listKey?: LK;
  readonly sqlTable: string;
  /** The field that names a row in titles ("Rename client 'Acme'"). */
  readonly label: keyof F & string;
  readonly parent?: P;
  readonly fields: F;
  readonly rules?: readonly RowRule[];
  /** Dexie indexes besides `id` and `workspaceId` (see src/db/app-database.ts). */
  readonly indexes: readonly string[];
  /**
   * The field holding the project a row's changes belong to in the project's activity log
   * (`id` for the project itself); without one, changes are not in any project's activity.
   */
  readonly activityProject?: string;
  /**
   * Rows pushed to the workspace's open apps as each write commits (hub event rowsChanged), for
   * entities whose changes people wait on (chat); others are only announced (tablesInvalidated).
   */
  readonly live?: boolean;
  /** Who may delete a row (workspace role); members by default. */
  readonly deleteRole?: 'member' | 'admin';
  /**
   * The list operation: `workspace` lists a workspace's rows (`workspaceId`; the parent key as
   * an optional filter), `parent` one parent's rows (its key required). `filters`: choice fields
   * accepted as exact-match query parameters. `orderBy`: SQL over the entity's columns.
   */
  readonly list: {
    readonly scope: 'workspace' | 'parent';
    readonly filters?: readonly (keyof F & string)[];
    readonly orderBy: string;
    /**
     * Paged by an integer column (a chat's seq): the list takes `before` and `limit` and answers
     * the newest `limit` rows below `before`, in ascending order; `orderBy` is then unused.
     */
    readonly page?: { readonly column: string; readonly limit: number; readonly max: number };
  };
  readonly summaries?: { readonly create?: string; readonly list?: string };
}

type EndpointsOf<N extends string, PL extends string, R extends string, F, P, LK extends string> = {
  create: EndpointDefinition<
    typeof emptyQuery,
    v.GenericSchema<CreateInputOf<F, P>, CreateOutputOf<F, P>>,
    v.GenericSchema<{ [K in Camel<N>]: RowOf<F, P> }>,
    R,
    `create-${N}`,
    'user'
  >;
  update: EndpointDefinition<
    typeof byIdQuery,
    v.GenericSchema<UpdateInputOf<F, P>, UpdateOutputOf<F, P>>,
    v.GenericSchema<{ [K in Camel<N>]: RowOf<F, P> }>,
    R,
    `update-${N}`,
    'user'
  >;
  delete: EndpointDefinition<
    typeof deleteQuery,
    undefined,
    typeof deletedOutput,
    R,
    `delete-${N}`,
    'user'
  >;
  list: EndpointDefinition<
    v.GenericSchema<ListQuery>,
    undefined,
    v.GenericSchema<{ [K in LK]: RowOf<F, P>[] }>,
    R,
    `get-${PL}`,
    'user'
  >;
  get: EndpointDefinition<
    typeof byIdQuery,
    undefined,
    v.GenericSchema<{ [K in Camel<N>]: RowOf<F, P> }>,
    R,
    `get-${N}`,
    'user'
  >;
};

const emptyQuery = v.strictObject({});

export interface SyncedEntity<
  N extends string = string,
  PL extends string = string,
  R extends string = string,
  F extends Fields = Fields,
  P extends ParentDef | undefined = ParentDef | undefined,
  LK extends string = Camel<PL>,
> extends SyncedEntityDeclaration<N, PL, R, F, P, LK> {
  readonly resource: R;
  /** The device's table and the change log's table name. */
  readonly table: Camel<PL>;
  /** Key of one row in an operation's output (`{client}`), and of a list (`{clients}`). */
  readonly oneKey: Camel<N>;
  readonly manyKey: LK;
  /** The entity in words ("client note"). */
  readonly word: string;
  readonly rowSchema: v.GenericSchema<RowOf<F, P>>;
  readonly createSchema: v.GenericSchema<CreateInputOf<F, P>, CreateOutputOf<F, P>>;
  readonly updateSchema: v.GenericSchema<UpdateInputOf<F, P>, UpdateOutputOf<F, P>>;
  readonly endpoints: EndpointsOf<N, PL, R, F, P, LK>;
  /** The five operations in registry order. */
  readonly endpointList: readonly [
    EndpointsOf<N, PL, R, F, P, LK>['create'],
    EndpointsOf<N, PL, R, F, P, LK>['update'],
    EndpointsOf<N, PL, R, F, P, LK>['delete'],
    EndpointsOf<N, PL, R, F, P, LK>['list'],
    EndpointsOf<N, PL, R, F, P, LK>['get'],
  ];
  /** Field names a create accepts, a patch accepts, and that a new row takes by default. */
  readonly createKeys: readonly string[];
  readonly editableKeys: readonly string[];
  readonly rowDefaults: Readonly<Record<string, unknown>>;
}

export type AnySyncedEntity = SyncedEntity<
  string,
  string,
  string,
  Fields,
  ParentDef | undefined,
  string
>;

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** A copy per use: a default array must never be shared between rows. */
function defaultOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? () => structuredClone(value) : value;
}

type SchemaNode = AnySchema & {
  type: string;
  pipe?: readonly AnySchema[];
  wrapped?: AnySchema;
  item?: AnySchema;
  entries?: Record<string, AnySchema>;
};

/**
 * The same shape without its checks and transformations: what a stored row must look like. A pipe
 * is reduced to its root schema; wrappers, arrays and objects are loosened inside.
 */
export function loosen(schema: AnySchema): AnySchema {
  const node = schema as SchemaNode;
  if (node.pipe?.[0]) return loosen(node.pipe[0]);
  if ((node.type === 'nullable' || node.type === 'optional') && node.wrapped) {
    const inner = loosen(node.wrapped);
    return node.type === 'nullable' ? v.nullable(inner) : v.optional(inner);
  }
  if (node.type === 'array' && node.item) return v.array(loosen(node.item));
  if (node.type === 'object' && node.entries) {
    return v.object(
      Object.fromEntries(Object.entries(node.entries).map(([key, entry]) => [key, loosen(entry)])),
    );
  }
  return schema;
}

/** `before` and `limit` of a paged list (see `list.page`); nothing for an unpaged one. */
function pageQuery(page: { readonly max: number } | undefined): Record<string, AnySchema> {
  if (!page) return {};
  return {
    before: v.optional(
      v.pipe(text(), v.regex(/^[1-9]\d{0,15}$/, 'before is a positive whole number')),
    ),
    limit: v.optional(
      v.pipe(
        text(),
        v.regex(/^[1-9]\d{0,3}$/, 'limit is a positive whole number'),
        v.check((value) => Number(value) <= page.max, `limit is at most ${page.max}`),
      ),
    ),
  };
}

function withRules<S extends AnySchema>(schema: S, rules: readonly RowRule[]): AnySchema {
  if (rules.length === 0) return schema;
  const checks = rules.map((rule) =>
    v.forward(
      v.check((input: Record<string, unknown>) => rule.test(input), rule.message),
      [rule.path] as never,
    ),
  );
  return (v.pipe as unknown as (...items: unknown[]) => AnySchema)(schema, ...checks);
}

export function defineSyncedEntity<
  const N extends string,
  const PL extends string,
  F extends Fields,
  const P extends ParentDef | undefined = undefined,
  const R extends string = N,
  const LK extends string = Camel<PL>,
>(decl: SyncedEntityDeclaration<N, PL, R, F, P, LK>): SyncedEntity<N, PL, R, F, P, LK> {
  const resource = (decl.resource ?? decl.name) as R;
  const entries = Object.entries(decl.fields);
  const rules = decl.rules ?? [];
  const parentKey = decl.parent?.key;
  const word = decl.name.replace(/-/g, ' ');

  const rowSchema = v.object({
    id: text(),
    workspaceId: text(),
    ...(parentKey ? { [parentKey]: text() } : {}),
    ...Object.fromEntries(entries.map(([key, def]) => [key, loosen(def.schema)])),
    createdAt: text(),
    createdBy: text(),
    updatedAt: text(),
    updatedBy: text(),
    version: v.number(),
  });

  const creatable = entries.filter(([, def]) => def.create !== false);
  const createSchema = withRules(
    v.object({
      id: idSchema,
      workspaceId: idSchema,
      ...(parentKey ? { [parentKey]: idSchema } : {}),
      ...Object.fromEntries(
        creatable.map(([key, def]) => [
          key,
          def.default === undefined ? def.schema : v.optional(def.schema, defaultOf(def.default)),
        ]),
      ),
    }),
    rules,
  );

  const editable = entries.filter(([, def]) => def.editable !== false);
  const movable = decl.parent?.editable && parentKey ? { [parentKey]: v.optional(idSchema) } : {};
  const updateSchema = withRules(
    v.pipe(
      v.strictObject({
        ...movable,
        ...Object.fromEntries(editable.map(([key, def]) => [key, v.optional(def.schema)])),
      }),
      v.check((patch) => Object.keys(patch).length > 0, 'Change at least one field'),
    ),
    rules,
  );

  const oneKey = camel(decl.name);
  const manyKey = decl.listKey ?? camel(decl.plural);
  const oneOutput = v.object({ [oneKey]: rowSchema });
  const listQuery = v.strictObject({
    ...(decl.list.scope === 'workspace'
      ? { workspaceId: idSchema, ...(parentKey ? { [parentKey]: v.optional(idSchema) } : {}) }
      : parentKey
        ? { [parentKey]: idSchema }
        : { workspaceId: idSchema }),
    ...pageQuery(decl.list.page),
    ...Object.fromEntries(
      (decl.list.filters ?? []).map((key) => {
        const options = (loosen(decl.fields[key]?.schema as AnySchema) as { options?: string[] })
          .options;
        return [
          key,
          v.optional(
            options ? v.picklist(options, `Unknown ${key}`) : v.pipe(text(), v.maxLength(200)),
          ),
        ];
      }),
    ),
  });

  const endpoints = {
    create: defineEndpoint({
      resource,
      operation: `create-${decl.name}`,
      method: 'POST',
      auth: 'user',
      summary: decl.summaries?.create ?? `Create a ${word} with an id generated by the app.`,
      query: emptyQuery,
      body: createSchema,
      output: oneOutput,
    }),
    update: defineEndpoint({
      resource,
      operation: `update-${decl.name}`,
      method: 'PATCH',
      auth: 'user',
      summary: `Change the given fields of a ${word}.`,
      query: byIdQuery,
      body: updateSchema,
      output: oneOutput,
    }),
    delete: defineEndpoint({
      resource,
      operation: `delete-${decl.name}`,
      method: 'DELETE',
      auth: 'user',
      summary: `Delete a ${word} and what belongs to it; where deleting needs confirming, cascade=true.`,
      query: deleteQuery,
      output: deletedOutput,
    }),
    list: defineEndpoint({
      resource,
      operation: `get-${decl.plural}`,
      method: 'GET',
      auth: 'user',
      summary:
        decl.summaries?.list ??
        `The ${decl.plural.replace(/-/g, ' ')} of a ${decl.list.scope === 'parent' && decl.parent ? decl.parent.entity.replace(/-/g, ' ') : 'workspace'}.`,
      query: listQuery,
      output: v.object({ [manyKey]: v.array(rowSchema) }),
    }),
    get: defineEndpoint({
      resource,
      operation: `get-${decl.name}`,
      method: 'GET',
      auth: 'user',
      summary: `One ${word}.`,
      query: byIdQuery,
      output: oneOutput,
    }),
  } as unknown as EndpointsOf<N, PL, R, F, P, LK>;

  return {
    ...decl,
    resource,
    table: camel(decl.plural) as Camel<PL>,
    oneKey: oneKey as Camel<N>,
    manyKey: manyKey as LK,
    word,
    rowSchema: rowSchema as unknown as v.GenericSchema<RowOf<F, P>>,
    createSchema: createSchema as unknown as SyncedEntity<N, PL, R, F, P, LK>['createSchema'],
    updateSchema: updateSchema as unknown as SyncedEntity<N, PL, R, F, P, LK>['updateSchema'],
    endpoints,
    endpointList: [
      endpoints.create,
      endpoints.update,
      endpoints.delete,
      endpoints.list,
      endpoints.get,
    ],
    createKeys: creatable.map(([key]) => key),
    editableKeys: [
      ...(decl.parent?.editable && parentKey ? [parentKey] : []),
      ...editable.map(([key]) => key),
    ],
    rowDefaults: Object.fromEntries(
      entries
        .filter(([, def]) => def.create === false && def.default !== undefined)
        .map(([key, def]) => [key, def.default]),
    ),
  };
}

/** A field's name in words: its declared word, else "dueDate" as "due date". */
export function fieldWord(entity: AnySyncedEntity, key: string): string {
  if (entity.parent?.key === key) return entity.parent.entity.replace(/-/g, ' ');
  return entity.fields[key]?.word ?? key.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
}

/** The column a field is stored in. */
export function columnOf(entity: AnySyncedEntity, key: string): string {
  return (
    entity.fields[key]?.column ?? key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)
  );
}
