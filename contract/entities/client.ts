/** Clients (product-anchors 4.1): the people and companies a freelancer works for. */
import * as v from 'valibot';
import { text } from '../text.ts';
import { requiredLine } from './fields.ts';
import { defineSyncedEntity, field } from '../synced-entity.ts';
import { emailSchema } from './contact-message.ts';

export const clientStatuses = ['lead', 'active', 'inactive'] as const;
export type ClientStatus = (typeof clientStatuses)[number];

const optionalText = (label: string, max: number) =>
  v.nullable(
    v.pipe(
      text(`${label} must be text`),
      v.trim(),
      v.maxLength(max, `${label} must be at most ${max} characters`),
    ),
  );

export const currencySchema = v.pipe(
  text(),
  v.regex(/^[A-Z]{3}$/, 'Use a 3-letter currency code like EUR'),
);
const tagsSchema = v.pipe(
  v.array(
    v.pipe(
      text(),
      v.trim(),
      v.nonEmpty('A tag cannot be empty'),
      v.maxLength(40, 'Tags are at most 40 characters'),
    ),
  ),
  v.maxLength(30, 'At most 30 tags'),
);
const websiteSchema = v.nullable(
  v.pipe(
    text(),
    v.trim(),
    v.maxLength(2048),
    v.url('Enter a web address like https://example.com'),
    v.check((u) => /^https?:\/\//i.test(u), 'Use an http or https address'),
  ),
);

export const clientEntity = defineSyncedEntity({
  name: 'client',
  plural: 'clients',
  sqlTable: 'client',
  label: 'name',
  fields: {
    name: field(requiredLine('Name', 200)),
    company: field(optionalText('Company', 200), { default: null }),
    email: field(v.nullable(emailSchema), { default: null }),
    phone: field(optionalText('Phone', 50), { default: null }),
    address: field(optionalText('Address', 1000), { default: null }),
    website: field(websiteSchema, { default: null }),
    notesSummary: field(optionalText('Notes', 5000), { default: null, word: 'notes' }),
    tags: field(tagsSchema, { default: [], sql: 'jsonb' }),
    status: field(v.picklist(clientStatuses, 'Choose lead, active or inactive'), {
      default: 'active',
      values: { lead: 'Lead', active: 'Active', inactive: 'Inactive' },
    }),
    currency: field(currencySchema, { default: 'USD' }),
    locale: field(v.nullable(v.pipe(text(), v.maxLength(35))), {
      default: null,
      word: 'language',
    }),
    timeZone: field(v.nullable(v.pipe(text(), v.maxLength(64))), {
      default: null,
    }),
    archived: field(v.boolean(), { default: false, create: false }),
  },
  indexes: ['[workspaceId+status]', '[workspaceId+name]', '[workspaceId+updatedAt]'],
  deleteRole: 'admin',
  list: { scope: 'workspace', filters: ['status'], orderBy: 'lower(name), id' },
  summaries: { list: "A workspace's clients." },
});

export const clientSchema = clientEntity.rowSchema;
export type Client = v.InferOutput<typeof clientSchema>;
export const createClientInputSchema = clientEntity.createSchema;
export type CreateClientInput = v.InferOutput<typeof createClientInputSchema>;
/** A patch: only the fields that changed. */
export const updateClientInputSchema = clientEntity.updateSchema;
export type UpdateClientInput = v.InferOutput<typeof updateClientInputSchema>;
