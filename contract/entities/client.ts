import * as v from 'valibot';
import { text } from '../text.ts';
import { emailSchema } from './contact-message.ts';
import { idSchema } from './ids.ts';

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

const currencySchema = v.pipe(
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

/** Fields a user edits (client: product-anchors 4.1). */
const clientFields = {
  name: v.pipe(
    text('Name must be text'),
    v.trim(),
    v.nonEmpty('Name is required'),
    v.maxLength(200, 'Name must be at most 200 characters'),
  ),
  company: optionalText('Company', 200),
  email: v.nullable(emailSchema),
  phone: optionalText('Phone', 50),
  address: optionalText('Address', 1000),
  website: websiteSchema,
  notesSummary: optionalText('Notes', 5000),
  tags: tagsSchema,
  status: v.picklist(clientStatuses, 'Choose lead, active or inactive'),
  currency: currencySchema,
  locale: v.nullable(v.pipe(text(), v.maxLength(35))),
  timeZone: v.nullable(v.pipe(text(), v.maxLength(64))),
  archived: v.boolean(),
};

export const clientSchema = v.object({
  id: text(),
  workspaceId: text(),
  name: text(),
  company: v.nullable(text()),
  email: v.nullable(text()),
  phone: v.nullable(text()),
  address: v.nullable(text()),
  website: v.nullable(text()),
  notesSummary: v.nullable(text()),
  tags: v.array(text()),
  status: v.picklist(clientStatuses),
  currency: text(),
  locale: v.nullable(text()),
  timeZone: v.nullable(text()),
  archived: v.boolean(),
  createdAt: text(),
  createdBy: text(),
  updatedAt: text(),
  updatedBy: text(),
  /** Change-log sequence of the last write (the sync cursor position of this row). */
  version: v.number(),
});
export type Client = v.InferOutput<typeof clientSchema>;

export const createClientInputSchema = v.object({
  id: idSchema,
  workspaceId: idSchema,
  name: clientFields.name,
  company: v.optional(clientFields.company, null),
  email: v.optional(clientFields.email, null),
  phone: v.optional(clientFields.phone, null),
  address: v.optional(clientFields.address, null),
  website: v.optional(clientFields.website, null),
  notesSummary: v.optional(clientFields.notesSummary, null),
  tags: v.optional(clientFields.tags, []),
  status: v.optional(clientFields.status, 'active'),
  currency: v.optional(clientFields.currency, 'USD'),
  locale: v.optional(clientFields.locale, null),
  timeZone: v.optional(clientFields.timeZone, null),
});
export type CreateClientInput = v.InferOutput<typeof createClientInputSchema>;

/** A patch: only the fields that changed. */
export const updateClientInputSchema = v.pipe(
  v.strictObject({
    name: v.optional(clientFields.name),
    company: v.optional(clientFields.company),
    email: v.optional(clientFields.email),
    phone: v.optional(clientFields.phone),
    address: v.optional(clientFields.address),
    website: v.optional(clientFields.website),
    notesSummary: v.optional(clientFields.notesSummary),
    tags: v.optional(clientFields.tags),
    status: v.optional(clientFields.status),
    currency: v.optional(clientFields.currency),
    locale: v.optional(clientFields.locale),
    timeZone: v.optional(clientFields.timeZone),
    archived: v.optional(clientFields.archived),
  }),
  v.check((patch) => Object.keys(patch).length > 0, 'Change at least one field'),
);
export type UpdateClientInput = v.InferOutput<typeof updateClientInputSchema>;
