/**
 * How the portal words a change request's answer: the cost and timeline impact a member quoted,
 * signed so "+€500.00" reads as more and "−2 days" as sooner, and the badge of each status.
 */
import type { ChangeRequestStatus } from '#contract/entities/change-request.ts';
import { formatAmount } from '../milestones/milestone-format.ts';

/** 50000 EUR → "+€500.00"; -20000 → "−€200.00"; 0 → "No extra cost". */
export function costImpactWords(minor: number, currency: string): string {
  if (minor === 0) return 'No extra cost';
  return `${minor > 0 ? '+' : '−'}${formatAmount(Math.abs(minor), currency)}`;
}

/** 5 → "+5 days"; -1 → "−1 day"; 0 → "No change". */
export function scheduleImpactWords(days: number): string {
  if (days === 0) return 'No change';
  const size = Math.abs(days);
  return `${days > 0 ? '+' : '−'}${size} ${size === 1 ? 'day' : 'days'}`;
}

export const changeRequestBadgeClasses: Record<ChangeRequestStatus, string> = {
  submitted: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
  quoted: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  approved: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  accepted: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  declined: 'bg-rose-100 text-rose-900 dark:bg-rose-950 dark:text-rose-200',
  quote_declined: 'bg-rose-100 text-rose-900 dark:bg-rose-950 dark:text-rose-200',
};
