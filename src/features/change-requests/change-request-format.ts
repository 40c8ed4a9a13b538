/**
 * Change request words and numbers. A cost impact is signed integer minor units (a change may
 * save money), typed as "1500.50" or "-200" and parsed by string arithmetic like milestone
 * amounts (milestone-format.ts); a timeline impact is signed whole days.
 */
import type { ChangeRequestStatus } from '#contract/entities/change-request.ts';
import {
  AMOUNT_TOO_LARGE,
  amountText,
  currencyDecimals,
  parseAmount,
} from '../milestones/milestone-format.ts';

export type ParsedNumber = { value: number | null } | { error: string };

/** "-1,500.50" → -150050 (EUR); "" → null; anything else explains what to type. */
export function parseCostImpact(text: string, currency: string): ParsedNumber {
  const trimmed = text.trim();
  // A pasted typographic minus (U+2212) counts as a minus.
  const negative = /^[-\u2212]/.test(trimmed);
  const signed = negative || trimmed.startsWith('+');
  const unsigned = signed ? trimmed.slice(1) : trimmed;
  if (signed && unsigned.trim() === '') return { error: costHint(currency) };
  const parsed = parseAmount(unsigned, currency);
  if ('error' in parsed) {
    return { error: parsed.error === AMOUNT_TOO_LARGE ? parsed.error : costHint(currency) };
  }
  if (parsed.minor === null) return { value: null };
  return { value: negative ? -parsed.minor : parsed.minor };
}

function costHint(currency: string): string {
  return currencyDecimals(currency) === 0
    ? 'Enter an amount like 1500, or -200 for a saving'
    : 'Enter an amount like 1500.50, or -200 for a saving';
}

/** Signed minor units as typed text again (-150050 → "-1500.50") for the edit field. */
export function costImpactText(minor: number | null, currency: string): string {
  if (minor === null) return '';
  return minor < 0 ? `-${amountText(-minor, currency)}` : amountText(minor, currency);
}

/** 150050 EUR → "+€1,500.50", -2000 → "-€20.00", 0 → "€0.00". */
export function formatCostImpact(minor: number, currency: string, locale?: string): string {
  const decimals = currencyDecimals(currency);
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      signDisplay: 'exceptZero',
    }).format(minor / 10 ** decimals);
  } catch {
    return `${minor > 0 ? '+' : ''}${costImpactText(minor, currency)} ${currency}`;
  }
}

/** "5", "+5", "-2" → whole days; "" → null. */
export function parseScheduleDays(text: string): ParsedNumber {
  const cleaned = text.trim().replace(/^\u2212/, '-');
  if (cleaned === '') return { value: null };
  if (!/^[-+]?\d{1,6}$/.test(cleaned)) return { error: 'Enter whole days, like 5 or -2' };
  return { value: Number(cleaned) };
}

/** 5 → "+5 days", -1 → "-1 day", 0 → "No change". */
export function formatScheduleDays(days: number): string {
  if (days === 0) return 'No change';
  const unit = Math.abs(days) === 1 ? 'day' : 'days';
  return `${days > 0 ? '+' : '-'}${Math.abs(days)} ${unit}`;
}

export const changeRequestBadgeClasses: Record<ChangeRequestStatus, string> = {
  submitted: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
  quoted: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  approved: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  accepted: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  declined: 'bg-surface-muted text-fg-muted',
  quote_declined: 'bg-rose-100 text-rose-900 dark:bg-rose-950 dark:text-rose-200',
};

const dayFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});
const dateOfTimestamp = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** "12 Mar" for a plain date (a due date move's preview). */
export function formatShortDate(date: string): string {
  return dayFormat.format(new Date(`${date}T00:00`));
}

/** The day of a timestamp ("12 Mar 2026"), or the text itself when it is not a date. */
export function formatTimestampDate(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : dateOfTimestamp.format(date);
}

/** Day and time of a timestamp ("12 Mar 2026, 14:05"). */
export function formatTimestamp(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : dateTimeFormat.format(date);
}
