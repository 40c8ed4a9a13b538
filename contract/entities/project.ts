import * as v from 'valibot';
import { text } from '../text.ts';
import { idSchema } from './ids.ts';

export const projectStatuses = ['planned', 'active', 'on_hold', 'completed', 'cancelled'] as const;
export type ProjectStatus = (typeof projectStatuses)[number];
export const billingTypes = ['fixed', 'hourly', 'retainer', 'non_billable'] as const;
export type BillingType = (typeof billingTypes)[number];

const dateSchema = v.nullable(v.pipe(text(), v.isoDate('Use a date like 2026-03-31')));
/** Money as a decimal string (never a float): up to 12 digits and 2 decimals. */
const moneySchema = v.nullable(
  v.pipe(text(), v.regex(/^\d{1,12}(\.\d{1,2})?$/, 'Enter an amount like 1500 or 1500.50')),
);

const projectFields = {
  name: v.pipe(
    text('Name must be text'),
    v.trim(),
    v.nonEmpty('Name is required'),
    v.maxLength(200, 'Name must be at most 200 characters'),
  ),
  description: v.nullable(
    v.pipe(text(), v.maxLength(20_000, 'Description must be at most 20,000 characters')),
  ),
  status: v.picklist(projectStatuses, 'Choose a status'),
  startDate: dateSchema,
  dueDate: dateSchema,
  budget: moneySchema,
  currency: v.pipe(text(), v.regex(/^[A-Z]{3}$/, 'Use a 3-letter currency code like EUR')),
  billingType: v.picklist(billingTypes, 'Choose fixed, hourly, retainer or non-billable'),
  color: v.nullable(v.pipe(text(), v.regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour like #A0522D'))),
  archived: v.boolean(),
};

const datesInOrder = (input: {
  startDate?: string | null | undefined;
  dueDate?: string | null | undefined;
}) => !input.startDate || !input.dueDate || input.startDate <= input.dueDate;

export const projectSchema = v.object({
  id: text(),
  workspaceId: text(),
  clientId: text(),
  name: text(),
  description: v.nullable(text()),
  status: v.picklist(projectStatuses),
  startDate: v.nullable(text()),
  dueDate: v.nullable(text()),
  budget: v.nullable(text()),
  currency: text(),
  billingType: v.picklist(billingTypes),
  color: v.nullable(text()),
  archived: v.boolean(),
  createdAt: text(),
  createdBy: text(),
  updatedAt: text(),
  updatedBy: text(),
  version: v.number(),
});
export type Project = v.InferOutput<typeof projectSchema>;

export const createProjectInputSchema = v.pipe(
  v.object({
    id: idSchema,
    workspaceId: idSchema,
    clientId: idSchema,
    name: projectFields.name,
    description: v.optional(projectFields.description, null),
    status: v.optional(projectFields.status, 'planned'),
    startDate: v.optional(projectFields.startDate, null),
    dueDate: v.optional(projectFields.dueDate, null),
    budget: v.optional(projectFields.budget, null),
    currency: v.optional(projectFields.currency, 'USD'),
    billingType: v.optional(projectFields.billingType, 'fixed'),
    color: v.optional(projectFields.color, null),
  }),
  v.forward(
    v.check((input) => datesInOrder(input), 'The due date must not be before the start date'),
    ['dueDate'],
  ),
);
export type CreateProjectInput = v.InferOutput<typeof createProjectInputSchema>;

export const updateProjectInputSchema = v.pipe(
  v.strictObject({
    clientId: v.optional(idSchema),
    name: v.optional(projectFields.name),
    description: v.optional(projectFields.description),
    status: v.optional(projectFields.status),
    startDate: v.optional(projectFields.startDate),
    dueDate: v.optional(projectFields.dueDate),
    budget: v.optional(projectFields.budget),
    currency: v.optional(projectFields.currency),
    billingType: v.optional(projectFields.billingType),
    color: v.optional(projectFields.color),
    archived: v.optional(projectFields.archived),
  }),
  v.check((patch) => Object.keys(patch).length > 0, 'Change at least one field'),
  v.forward(
    v.check((input) => datesInOrder(input), 'The due date must not be before the start date'),
    ['dueDate'],
  ),
);
export type UpdateProjectInput = v.InferOutput<typeof updateProjectInputSchema>;
