import type { ClientStatus } from '#contract/entities/client.ts';

export const clientStatusLabels: Record<ClientStatus, string> = {
  lead: 'Lead',
  active: 'Active',
  inactive: 'Inactive',
};

const badgeTone: Record<ClientStatus, string> = {
  lead: 'bg-amber-100 text-amber-900 dark:bg-amber-400/15 dark:text-amber-200',
  active: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-400/15 dark:text-emerald-200',
  inactive: 'bg-surface-muted text-fg-muted',
};

export function clientStatusBadgeClass(status: ClientStatus): string {
  return `inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${badgeTone[status]}`;
}
