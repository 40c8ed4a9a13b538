/**
 * Milestone words and money: amounts are stored as integer minor units (cents), never floats.
 * Typed text ("1,500.50") becomes minor units by string arithmetic, in the currency's own number
 * of decimals (JPY has none), and minor units are shown with Intl.NumberFormat.
 */
import type { MilestoneStatus } from '#contract/entities/milestone.ts';

/** How many decimals a currency's minor unit has (2 for EUR, 0 for JPY); 2 when unknown. */
export function currencyDecimals(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
}

export type ParsedAmount = { minor: number | null } | { error: string };

/** "1500.50" → 150050 (EUR); "" → null; anything else explains what to type. */
export const AMOUNT_TOO_LARGE = 'That amount is too large';

export function parseAmount(text: string, currency: string): ParsedAmount {
  const cleaned = text.replace(/[\s,\u00a0]/g, '');
  if (cleaned === '') return { minor: null };
  const decimals = currencyDecimals(currency);
  // A number, just one too long to be a price: say that, not what to type.
  if (/^\d{14,}(?:\.\d*)?$/.test(cleaned)) return { error: AMOUNT_TOO_LARGE };
  const match = /^(\d{1,13})(?:\.(\d*))?$/.exec(cleaned);
  const fraction = match?.[2] ?? '';
  if (!match || fraction.length > decimals) {
    return {
      error:
        decimals === 0
          ? 'Enter a whole amount like 1500'
          : `Enter an amount like 1500 or 1500.${'5'.padEnd(decimals, '0')}`,
    };
  }
  const minor = Number(`${match[1]}${fraction.padEnd(decimals, '0')}`);
  return { minor };
}

/** Minor units as typed text again ("150050" → "1500.50") for an edit field. */
export function amountText(minor: number | null, currency: string): string {
  if (minor === null) return '';
  const decimals = currencyDecimals(currency);
  if (decimals === 0) return String(minor);
  const digits = String(minor).padStart(decimals + 1, '0');
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** 150050 EUR → "€1,500.50" in the reader's locale. */
export function formatAmount(minor: number, currency: string, locale?: string): string {
  const decimals = currencyDecimals(currency);
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(
      minor / 10 ** decimals,
    );
  } catch {
    return `${amountText(minor, currency)} ${currency}`;
  }
}

export const milestoneBadgeClasses: Record<MilestoneStatus, string> = {
  planned: 'bg-surface-muted text-fg-muted',
  in_progress: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
  awaiting_approval: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  approved: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  changes_requested: 'bg-rose-100 text-rose-900 dark:bg-rose-950 dark:text-rose-200',
};

/** Today in the user's time zone as YYYY-MM-DD (due dates are plain dates). */
export function localToday(now = new Date()): string {
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}

/**
 * Made at first use, not when the module is evaluated: a page's first formatter loads the locale's
 * data (about 20 ms on a laptop), which belongs in the task that shows a date, not in the
 * evaluation of every module graph this one is part of (the portal's first paint).
 */
let dueFormat: Intl.DateTimeFormat | undefined;

/** "12 Mar 2026" for a plain date. */
export function formatDate(date: string): string {
  dueFormat ??= new Intl.DateTimeFormat(undefined, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
  return dueFormat.format(new Date(`${date}T00:00`));
}
