/**
 * Each CSV row to a client create input, checked with the contract's own create schema (the one
 * the device's write and the server both apply), so a row that passes here is one the app would
 * accept from the New client form. Every problem is reported with its row number, field and
 * message; a row with any problem is skipped whole, never imported in part.
 */
import * as v from 'valibot';
import { createClientInputSchema } from '#contract/entities/client.ts';
import type { NewClientInput } from '../../data/client-mutations.ts';
import { parseTags } from '../clients/parse-tags.ts';
import { clientFieldLabel, type ClientField } from './client-import-fields.ts';
import type { CsvRow } from './parse-client-csv.ts';

export interface RowProblem {
  row: number;
  field: string;
  message: string;
}

export interface ValidRow {
  row: number;
  input: NewClientInput & { id: string };
}

export interface RowCheck {
  valid: ValidRow[];
  problems: RowProblem[];
  /** Row numbers with at least one problem, in order. */
  skipped: number[];
}

export interface ImportDefaults {
  workspaceId: string;
  /** The workspace's currency, for rows that leave it empty (as the New client form does). */
  currency: string;
  newId: () => string;
}

/** A cell as the field takes it: empty means "not given" (the field's default or null). */
function fieldValue(field: ClientField, cell: string): unknown {
  const text = cell.trim();
  if (text === '') return undefined;
  switch (field) {
    case 'tags':
      return parseTags(text.replace(/;/g, ','));
    case 'status':
      return text.toLowerCase();
    case 'currency':
      return text.toUpperCase();
    default:
      return text;
  }
}

export function validateClientRows(
  rows: readonly CsvRow[],
  mapping: readonly (ClientField | null)[],
  defaults: ImportDefaults,
): RowCheck {
  const valid: ValidRow[] = [];
  const problems: RowProblem[] = [];
  const skipped: number[] = [];
  for (const row of rows) {
    const candidate: Record<string, unknown> = {
      id: defaults.newId(),
      workspaceId: defaults.workspaceId,
      currency: defaults.currency,
    };
    mapping.forEach((field, column) => {
      if (field === null) return;
      const value = fieldValue(field, row.cells[column] ?? '');
      if (value !== undefined) candidate[field] = value;
      // Nullable fields left empty are null; the name left empty stays missing (and is reported).
      else if (field !== 'name' && field !== 'status' && field !== 'currency' && field !== 'tags')
        candidate[field] = null;
    });
    if (candidate.name === undefined) candidate.name = '';
    const result = v.safeParse(createClientInputSchema, candidate);
    if (result.success) {
      valid.push({ row: row.number, input: result.output });
      continue;
    }
    skipped.push(row.number);
    // In the file's column order, so the list reads left to right like the row on screen.
    const column = (key: string) => {
      const index = mapping.indexOf(key as ClientField);
      return index === -1 ? mapping.length : index;
    };
    const seen = new Set<string>();
    const found = result.issues
      .map((issue) => ({ key: v.getDotPath(issue)?.split('.')[0] ?? '', message: issue.message }))
      .filter(({ key, message }) => !seen.has(`${key}:${message}`) && seen.add(`${key}:${message}`))
      .sort((a, b) => column(a.key) - column(b.key));
    for (const { key, message } of found) {
      problems.push({ row: row.number, field: key ? clientFieldLabel(key) : 'Row', message });
    }
  }
  return { valid, problems, skipped };
}
