/**
 * A draft's lines, edited in place: description, quantity, unit price (in the currency's units,
 * stored as minor units), tax and discount percents, and the line's amount as typed. The lines
 * are saved together when a field is left (one write, so two fields of a line never half-save);
 * a value the contract refuses stays as typed, with its message beside it, and nothing is saved
 * until it is put right: a value is never saved as another one (an empty price as 0, "0x10" as
 * 16), so the stored line keeps its last valid figures. A line added here is saved once it has a
 * description and a price. Removing a line moves focus to the next line's description (or Add
 * line).
 */
import { invoiceLineSchema, type InvoiceLine } from '#contract/entities/invoice.ts';
import {
  formatMoney,
  lineAmounts,
  minorToInput,
  parseMoney,
} from '#contract/entities/invoice-totals.ts';
import { Plus, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { FieldError, Input, TextField } from 'react-aria-components';
import * as v from 'valibot';
import { newInvoiceLine } from '../../data/invoices.ts';
import { Button } from '../../ui/button.tsx';
import { inputClassName } from '../../ui/form-text-field.tsx';
import { focusWhenReady } from '../../ui/focus-when-ready.ts';
import type { SendBlocker } from './send-blockers.ts';

interface LineText {
  id: string;
  description: string;
  quantity: string;
  unitPrice: string;
  taxRate: string;
  discountPercent: string;
  milestoneId: string | null;
  changeRequestId: string | null;
}

type LineErrors = Partial<Record<keyof LineText, string>>;

function toText(line: InvoiceLine, currency: string): LineText {
  return {
    id: line.id,
    description: line.description,
    quantity: String(line.quantity),
    unitPrice: minorToInput(line.unitPrice, currency),
    taxRate: String(line.taxRate),
    discountPercent: String(line.discountPercent),
    milestoneId: line.milestoneId,
    changeRequestId: line.changeRequestId,
  };
}

/**
 * A quantity or percent as typed: digits with one decimal point or comma (a minus sign too, so
 * the contract says "cannot be negative"). Anything else (1e3, 0x10, 1.000,5) is NaN, which the
 * contract refuses, rather than whatever Number() makes of it. An empty percent is none (0); an
 * empty quantity is refused, since it would bill nothing.
 */
function number(text: string, empty: number | null): number {
  const trimmed = text.trim();
  if (trimmed === '') return empty ?? Number.NaN;
  return /^-?(?:\d+(?:[.,]\d*)?|[.,]\d+)$/.test(trimmed)
    ? Number(trimmed.replace(',', '.'))
    : Number.NaN;
}

/** A line as typed to the contract's line, or what is wrong with it. */
export function parseLine(
  text: LineText,
  currency: string,
): { line: InvoiceLine; errors: null } | { line: null; errors: LineErrors } {
  // An empty price is no price (a line at no charge says 0), never a silent 0.
  const unitPrice = text.unitPrice.trim() === '' ? null : parseMoney(text.unitPrice, currency);
  const errors: LineErrors = {};
  if (unitPrice === null)
    errors.unitPrice = `Enter a price like ${minorToInput(150_000, currency)}`;
  const candidate = {
    id: text.id,
    description: text.description,
    quantity: number(text.quantity, null),
    // Only checked against the contract: a line with an error is never saved.
    unitPrice: unitPrice ?? 0,
    taxRate: number(text.taxRate, 0),
    discountPercent: number(text.discountPercent, 0),
    milestoneId: text.milestoneId,
    changeRequestId: text.changeRequestId,
  };
  const parsed = v.safeParse(invoiceLineSchema, candidate);
  if (!parsed.success) {
    for (const issue of parsed.issues) {
      const key = issue.path?.[0]?.key as keyof LineText | undefined;
      if (key && errors[key] === undefined) errors[key] = issue.message;
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { line: null, errors };
  return { line: parsed.output, errors: null };
}

/**
 * Lines as comparable text, whatever the key order: the server's jsonb gives keys back in its own
 * order, and a reordered copy of the same lines is not an edit.
 */
function linesKey(lines: readonly InvoiceLine[]): string {
  return JSON.stringify(
    lines.map((line) => [
      line.id,
      line.description,
      line.quantity,
      line.unitPrice,
      line.taxRate,
      line.discountPercent,
      line.milestoneId,
      line.changeRequestId,
    ]),
  );
}

type TypedKey = 'description' | 'quantity' | 'unitPrice' | 'taxRate' | 'discountPercent';
const lineFieldKeys: readonly TypedKey[] = [
  'description',
  'quantity',
  'unitPrice',
  'taxRate',
  'discountPercent',
];

/** A line's typed fields, in the order they stand. */
const lineFields = (currency: string): { key: TypedKey; label: string }[] => [
  { key: 'description', label: 'Description' },
  { key: 'quantity', label: 'Qty' },
  { key: 'unitPrice', label: `Price (${currency})` },
  { key: 'taxRate', label: 'Tax %' },
  { key: 'discountPercent', label: 'Discount %' },
];

const fieldId = (id: string, key: TypedKey) => `invoice-line-${id}-${key}`;
const descriptionId = (id: string) => fieldId(id, 'description');

/**
 * A line added here and never saved, still without a description or a price: being typed, so
 * neither saved nor judged yet (its price is not saved as 0 while the user is still on its way
 * to it). A saved line is always judged: emptied, it shows why rather than vanishing.
 */
function beingTyped(row: LineText, saved: ReadonlySet<string>): boolean {
  return !saved.has(row.id) && (row.description.trim() === '' || row.unitPrice.trim() === '');
}

/**
 * What keeps the lines on screen from being the lines stored, first first: a value refused, or a
 * line begun and not saved yet. Send checks it, since it would send the stored lines.
 */
function problemOf(
  rows: readonly LineText[],
  errors: Readonly<Record<string, LineErrors>>,
  saved: ReadonlySet<string>,
): SendBlocker | null {
  for (const [index, row] of rows.entries()) {
    const found = errors[row.id] ?? {};
    const key = lineFieldKeys.find((candidate) => found[candidate] !== undefined);
    if (key) return { fieldId: fieldId(row.id, key), message: `Line ${index + 1}: ${found[key]}` };
    const begun = row.description.trim() !== '' || row.unitPrice.trim() !== '';
    if (begun && beingTyped(row, saved)) {
      const missing = row.description.trim() === '' ? 'description' : 'unitPrice';
      return {
        fieldId: fieldId(row.id, missing),
        message: `Line ${index + 1} is not saved yet: give it ${missing === 'description' ? 'a description' : 'a price'}.`,
      };
    }
  }
  return null;
}

export function InvoiceLinesEditor({
  lines,
  currency,
  onSave,
  onProblemChange,
}: {
  lines: readonly InvoiceLine[];
  currency: string;
  onSave: (lines: InvoiceLine[]) => Promise<boolean>;
  /** Told what Send must wait for (problemOf) whenever it changes; keep it stable. */
  onProblemChange?: (problem: SendBlocker | null) => void;
}) {
  const [rows, setRows] = useState<LineText[]>(() => lines.map((line) => toText(line, currency)));
  const [errors, setErrors] = useState<Record<string, LineErrors>>({});
  /**
   * The lines as this editor saved them, latest last: the database answers each save in turn, and
   * an answer to an earlier save must not undo what was typed since. Anything else came from
   * elsewhere (milestones added, another device's edit) and replaces the rows.
   */
  const saved = useRef<string[]>([linesKey(lines)]);
  /** Lines stored or saved by this editor (the database's answer can lag behind the save). */
  const savedIds = useRef(new Set(lines.map((line) => line.id)));
  useEffect(() => {
    for (const line of lines) savedIds.current.add(line.id);
    const stored = linesKey(lines);
    if (saved.current.includes(stored)) return;
    saved.current = [stored];
    setRows(lines.map((line) => toText(line, currency)));
    setErrors({});
  }, [lines, currency]);

  useEffect(() => {
    onProblemChange?.(problemOf(rows, errors, savedIds.current));
  }, [rows, errors, onProblemChange]);

  /** Saves the rows not being typed, or shows why not (nothing is saved while one is wrong). */
  const commit = (all: LineText[]) => {
    const next = all.filter((row) => !beingTyped(row, savedIds.current));
    const parsed = next.map((row) => parseLine(row, currency));
    const found: Record<string, LineErrors> = {};
    parsed.forEach((result, index) => {
      if (result.errors) found[(next[index] as LineText).id] = result.errors;
    });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const valid = parsed.map((result) => result.line as InvoiceLine);
    const text = linesKey(valid);
    if (text === linesKey(lines)) return;
    for (const line of valid) savedIds.current.add(line.id);
    saved.current = [...saved.current.slice(-19), text];
    void onSave(valid);
  };

  const change = (id: string, key: keyof LineText, value: string) =>
    setRows((current) => current.map((row) => (row.id === id ? { ...row, [key]: value } : row)));

  const add = () => {
    const line = toText(newInvoiceLine(), currency);
    // A new line is saved once it has a description (the contract needs one).
    // Drawn at once and focused in the same task: keys typed right after "Add line" (a fast
    // typist, Enter then the description) land in the new line, and a space never presses the
    // button a second time.
    flushSync(() => setRows((current) => [...current, { ...line, unitPrice: '' }]));
    document.getElementById(descriptionId(line.id))?.focus();
    // And kept there through the re-renders that follow.
    focusWhenReady(`#${CSS.escape(descriptionId(line.id))}`);
  };

  const remove = (index: number) => {
    const next = rows.filter((_, at) => at !== index);
    setRows(next);
    commit(next);
    const following = next[index] ?? next[index - 1];
    focusWhenReady(following ? `#${CSS.escape(descriptionId(following.id))}` : '#invoice-add-line');
  };

  const blur = () => commit(rows);

  return (
    <div className="flex flex-col gap-3">
      {rows.length === 0 ? (
        <p className="text-sm text-fg-muted">No lines yet. Add what you are billing for.</p>
      ) : null}
      <ol className="flex flex-col gap-3" aria-label="Invoice lines">
        {rows.map((row, index) => {
          const parsed = parseLine(row, currency);
          const amount = parsed.line ? formatMoney(lineAmounts(parsed.line).net, currency) : '—';
          const rowErrors = errors[row.id] ?? {};
          return (
            <li
              key={row.id}
              className="grid grid-cols-2 gap-2 rounded-xl border border-border p-3 sm:grid-cols-[1fr_5rem_8rem_5rem_6rem_7rem_auto] sm:items-start sm:border-0 sm:p-0"
            >
              {lineFields(currency).map(({ key, label }) => (
                <LineField
                  key={key}
                  line={index + 1}
                  label={label}
                  value={row[key]}
                  error={rowErrors[key]}
                  onChange={(value) => change(row.id, key, value)}
                  onBlur={blur}
                  id={fieldId(row.id, key)}
                  {...(key === 'description'
                    ? { className: 'col-span-2 sm:col-span-1' }
                    : { inputMode: 'decimal' as const })}
                />
              ))}
              <p className="self-center text-right tabular-nums text-fg sm:pt-7">
                <span className="sr-only">Amount, line {index + 1}: </span>
                {amount}
              </p>
              <div className="col-span-2 flex justify-end sm:col-span-1 sm:pt-6">
                <Button
                  variant="ghost"
                  aria-label={`Remove line ${index + 1}`}
                  onPress={() => remove(index)}
                >
                  <X aria-hidden="true" size={18} />
                  <span className="sm:sr-only">Remove</span>
                </Button>
              </div>
            </li>
          );
        })}
      </ol>
      <div>
        <Button id="invoice-add-line" variant="secondary" onPress={add}>
          <Plus aria-hidden="true" size={18} />
          Add line
        </Button>
      </div>
    </div>
  );
}

function LineField({
  id,
  line,
  label,
  value,
  error,
  onChange,
  onBlur,
  inputMode,
  className = '',
}: {
  id: string;
  /** The line's number, read after the label ("Qty, line 2"), so each field names its line. */
  line: number;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  onBlur: () => void;
  inputMode?: 'decimal';
  className?: string;
}) {
  return (
    <TextField
      value={value}
      onChange={onChange}
      onBlur={onBlur}
      aria-label={`${label}, line ${line}`}
      isInvalid={error !== undefined}
      validationBehavior="aria"
      className={`flex min-w-0 flex-col gap-1 ${className}`}
    >
      {/* Seen above the field; the field's name adds its line (one name, the same in every browser). */}
      <span aria-hidden="true" className="text-xs font-medium text-fg-muted">
        {label}
      </span>
      <Input
        id={id}
        {...(inputMode ? { inputMode } : {})}
        className={`${inputClassName} min-w-0`}
      />
      <FieldError className="text-xs font-medium text-danger">{error}</FieldError>
    </TextField>
  );
}
