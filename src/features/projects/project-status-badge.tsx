import type { ProjectStatus } from '#contract/entities/project.ts';
import { statusBadgeClasses, statusIcons, statusLabels } from './project-labels.ts';

export interface ProjectStatusBadgeProps {
  status: ProjectStatus;
  className?: string;
}

export function ProjectStatusBadge({ status, className = '' }: ProjectStatusBadgeProps) {
  const Icon = statusIcons[status];
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${statusBadgeClasses[status]} ${className}`}
    >
      <Icon aria-hidden="true" size={13} />
      {statusLabels[status]}
    </span>
  );
}
