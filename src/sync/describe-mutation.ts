/**
 * A queued change in words, for the sync issues panel: "Rename client 'Acme' to 'Acme Ltd'",
 * "Move project 'Website' to On hold", "Delete client 'Acme'". Uses the entity's name as it was
 * when the change was made (the row may be gone by the time the server refuses it).
 * Entity-blind: the entity's word, its label field, field words (`fieldWord`) and value words
 * (each field's `values`) come from its contract declaration.
 */
import { entityNamed } from '#contract/synced-entities.ts';
import { fieldWord } from '#contract/synced-entity.ts';
import type { EntityName, MutationOp } from '../db/outbox-entry.ts';

const MAX_VALUE_CHARS = 40;

/**
 * A field's value in words: a list of plain values joined, a list of records counted ("2 items":
 * an invoice's lines would read "[object Object]"), nothing as "empty".
 */
export function valueWords(value: unknown): string {
  if (value === null || value === undefined || value === '') return 'empty';
  if (Array.isArray(value)) {
    if (value.some((item) => item !== null && typeof item === 'object')) {
      return `${value.length} ${value.length === 1 ? 'item' : 'items'}`;
    }
    return value.length === 0 ? 'empty' : value.map((item) => valueWords(item)).join(', ');
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return 'a new value';
}

function quote(value: unknown): string {
  const text = valueWords(value);
  return `'${text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text}'`;
}

export function describeMutation(mutation: {
  entity: EntityName;
  op: MutationOp;
  args: Record<string, unknown>;
  label: string;
}): string {
  const { args } = mutation;
  const entity = entityNamed(mutation.entity);
  const subject = `${entity.word} ${quote(mutation.label)}`;
  if (mutation.op === 'create') {
    return `Create ${entity.word} ${quote(args[entity.label] ?? mutation.label)}`;
  }
  if (mutation.op === 'delete') return `Delete ${subject}`;
  const fields = Object.keys(args);
  const [only] = fields;
  if (fields.length !== 1 || only === undefined) {
    return `Edit ${subject} (${fields.map((field) => fieldWord(entity, field)).join(', ')})`;
  }
  const value = args[only];
  // A choice field's value in its words ("on_hold" is "On hold"); other values as they are.
  const shown = entity.fields[only]?.values?.[String(value)] ?? value;
  if (only === entity.label) return `Rename ${subject} to ${quote(value)}`;
  if (only === 'archived') return `${value === true ? 'Archive' : 'Restore'} ${subject}`;
  if (only === 'status') return `Move ${subject} to ${String(shown)}`;
  const word = fieldWord(entity, only);
  if (only === entity.parent?.key) return `Move ${subject} to another ${word}`;
  if (value === null || value === '') return `Clear the ${word} of ${subject}`;
  return `Change the ${word} of ${subject} to ${quote(shown)}`;
}
