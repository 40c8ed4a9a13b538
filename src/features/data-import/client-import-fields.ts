/**
 * The client fields a CSV column can fill: every field the contract lets a create set (archived
 * is not one), each with the words a spreadsheet's header may use for it, so the mapping starts
 * from a good guess that the user can change column by column.
 */
import { clientEntity } from '#contract/entities/client.ts';

type CreatableKey = {
  [K in keyof typeof clientEntity.fields]: (typeof clientEntity.fields)[K] extends {
    create: false;
  }
    ? never
    : K;
}[keyof typeof clientEntity.fields];

export type ClientField = CreatableKey;

/** Label and header words per field; a field the contract adds fails typecheck until it is here. */
const fieldWords: Record<ClientField, { label: string; words: string[] }> = {
  name: {
    label: 'Name',
    words: ['name', 'client', 'client name', 'full name', 'contact', 'contact name'],
  },
  company: {
    label: 'Company',
    words: ['company', 'organisation', 'organization', 'business', 'company name'],
  },
  email: { label: 'Email', words: ['email', 'e-mail', 'mail', 'email address', 'e-mail address'] },
  phone: { label: 'Phone', words: ['phone', 'telephone', 'tel', 'mobile', 'phone number', 'cell'] },
  address: { label: 'Address', words: ['address', 'postal address', 'street', 'street address'] },
  website: { label: 'Website', words: ['website', 'web site', 'url', 'web', 'site', 'homepage'] },
  notesSummary: {
    label: 'Notes',
    words: ['notes', 'note', 'notes summary', 'comments', 'description'],
  },
  tags: { label: 'Tags', words: ['tags', 'tag', 'labels', 'label', 'categories'] },
  status: { label: 'Status', words: ['status', 'stage', 'state'] },
  currency: { label: 'Currency', words: ['currency', 'currency code'] },
  locale: { label: 'Language', words: ['language', 'locale', 'lang'] },
  timeZone: { label: 'Time zone', words: ['time zone', 'timezone', 'tz'] },
};

export const clientFields = (Object.keys(clientEntity.fields) as ClientField[]).filter(
  (key) => key in fieldWords,
);

export function clientFieldLabel(field: string): string {
  return fieldWords[field as ClientField]?.label ?? field;
}

const fold = (text: string) =>
  text
    .toLowerCase()
    .replace(/[_\-.]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** Which field each column goes to (null: not imported); a field is guessed for one column only. */
export function guessMapping(headers: readonly string[]): (ClientField | null)[] {
  const used = new Set<ClientField>();
  return headers.map((header) => {
    const folded = fold(header);
    const field = clientFields.find(
      (key) =>
        !used.has(key) &&
        (fold(key) === folded || fieldWords[key].words.some((word) => fold(word) === folded)),
    );
    if (!field) return null;
    used.add(field);
    return field;
  });
}

/** What is wrong with a mapping as a whole (the name is required, a field takes one column). */
export function mappingProblem(mapping: readonly (ClientField | null)[]): string | null {
  if (!mapping.includes('name')) return "Choose the column that holds each client's name.";
  const seen = new Set<ClientField>();
  for (const field of mapping) {
    if (field === null) continue;
    if (seen.has(field)) return `Two columns go to ${clientFieldLabel(field)}; choose one.`;
    seen.add(field);
  }
  return null;
}
