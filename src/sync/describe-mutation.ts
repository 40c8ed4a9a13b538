/**
 * A queued change in words, for the sync issues panel: "Rename client 'Acme' to 'Acme Ltd'",
 * "Move project 'Website' to On hold", "Delete client 'Acme'". Uses the entity's name as it was
 * when the change was made (the row may be gone by the time the server refuses it).
 */
import type { EntityName, MutationOp } from '../db/outbox-entry.ts';

const FIELD_WORDS: Record<string, string> = {
  name: 'name',
  company: 'company',
  email: 'email',
  phone: 'phone',
  address: 'address',
  website: 'website',
  notesSummary: 'notes',
  tags: 'tags',
  status: 'status',
  currency: 'currency',
  locale: 'language',
  timeZone: 'time zone',
  archived: 'archived',
  clientId: 'client',
  description: 'description',
  startDate: 'start date',
  dueDate: 'due date',
  budget: 'budget',
  billingType: 'billing type',
  color: 'colour',
};

const STATUS_WORDS: Record<string, string> = {
  lead: 'Lead',
  active: 'Active',
  inactive: 'Inactive',
  planned: 'Planned',
  on_hold: 'On hold',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

const MAX_VALUE_CHARS = 40;

function quote(value: unknown): string {
  const text = Array.isArray(value) ? value.join(', ') : String(value);
  return `'${text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text}'`;
}

export function describeMutation(mutation: {
  entity: EntityName;
  op: MutationOp;
  args: Record<string, unknown>;
  label: string;
}): string {
  const { entity, args } = mutation;
  const subject = `${entity} ${quote(mutation.label)}`;
  if (mutation.op === 'create') return `Create ${entity} ${quote(args.name ?? mutation.label)}`;
  if (mutation.op === 'delete') return `Delete ${subject}`;
  const fields = Object.keys(args);
  const [only] = fields;
  if (fields.length !== 1 || only === undefined) {
    return `Edit ${subject} (${fields.map((field) => FIELD_WORDS[field] ?? field).join(', ')})`;
  }
  const value = args[only];
  if (only === 'name') return `Rename ${subject} to ${quote(value)}`;
  if (only === 'archived') return `${value === true ? 'Archive' : 'Restore'} ${subject}`;
  if (only === 'status')
    return `Move ${subject} to ${STATUS_WORDS[String(value)] ?? String(value)}`;
  const word = FIELD_WORDS[only] ?? only;
  if (only === 'clientId') return `Move ${subject} to another client`;
  if (value === null || value === '') return `Clear the ${word} of ${subject}`;
  return `Change the ${word} of ${subject} to ${quote(value)}`;
}
