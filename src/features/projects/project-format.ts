/**
 * Display formats for project values. Dates are calendar days (YYYY-MM-DD, no time zone), so
 * they are formatted in UTC: a due date never shifts by a day with the viewer's zone.
 */
import type { ProjectStatus } from '#contract/entities/project.ts';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

export function formatDay(isoDate: string | null): string | null {
  if (isoDate === null) return null;
  const date = new Date(`${isoDate}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : dateFormat.format(date);
}

/** Money is a decimal string; shown in its currency, or as typed if the currency is unknown. */
export function formatMoney(amount: string | null, currency: string): string | null {
  if (amount === null) return null;
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(Number(amount));
  } catch {
    return `${amount} ${currency}`;
  }
}

/** Today as a calendar day in the viewer's time zone. */
export function localToday(now = new Date()): string {
  const offset = now.getTimezoneOffset() * 60_000;
  return new Date(now.getTime() - offset).toISOString().slice(0, 10);
}

const OPEN: ReadonlySet<ProjectStatus> = new Set(['planned', 'active', 'on_hold']);

export function isOverdue(
  project: { dueDate: string | null; status: ProjectStatus },
  today: string,
): boolean {
  return project.dueDate !== null && project.dueDate < today && OPEN.has(project.status);
}
