/**
 * Words and colours for project fields, shared by the list, the board, the create dialog and the
 * workspace header, so a status reads and looks the same everywhere.
 */
import {
  CircleCheck,
  CircleDashed,
  CirclePause,
  CirclePlay,
  CircleX,
  type LucideIcon,
} from 'lucide-react';
import {
  billingTypes,
  projectStatuses,
  type BillingType,
  type ProjectStatus,
} from '#contract/entities/project.ts';

export { billingTypes, projectStatuses };

export const statusLabels: Record<ProjectStatus, string> = {
  planned: 'Planned',
  active: 'Active',
  on_hold: 'On hold',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

/** Each status has an icon too, so it never depends on colour alone. */
export const statusIcons: Record<ProjectStatus, LucideIcon> = {
  planned: CircleDashed,
  active: CirclePlay,
  on_hold: CirclePause,
  completed: CircleCheck,
  cancelled: CircleX,
};

export const statusBadgeClasses: Record<ProjectStatus, string> = {
  planned: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
  active: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  on_hold: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  completed: 'bg-violet-100 text-violet-900 dark:bg-violet-950 dark:text-violet-200',
  cancelled: 'bg-surface-muted text-fg-muted',
};

export const billingTypeLabels: Record<BillingType, string> = {
  fixed: 'Fixed price',
  hourly: 'Hourly',
  retainer: 'Retainer',
  non_billable: 'Non-billable',
};

/** Preset project colours: mid-tones that read on both the light and the dark canvas. */
export const projectColors = [
  { value: '#C2410C', label: 'Rust' },
  { value: '#B45309', label: 'Amber' },
  { value: '#4D7C0F', label: 'Olive' },
  { value: '#047857', label: 'Green' },
  { value: '#0E7490', label: 'Teal' },
  { value: '#1D4ED8', label: 'Blue' },
  { value: '#6D28D9', label: 'Violet' },
  { value: '#BE185D', label: 'Pink' },
  { value: '#475569', label: 'Slate' },
] as const;

export function isProjectStatus(value: unknown): value is ProjectStatus {
  return projectStatuses.includes(value as ProjectStatus);
}
