/** Status and billing choices for the select fields (create dialog, overview, filters). */
import {
  billingTypeLabels,
  billingTypes,
  projectStatuses,
  statusIcons,
  statusLabels,
} from './project-labels.ts';

export const statusOptions = projectStatuses.map((status) => {
  const Icon = statusIcons[status];
  return {
    id: status,
    label: statusLabels[status],
    icon: <Icon aria-hidden="true" size={16} className="shrink-0 text-fg-muted" />,
  };
});

export const billingOptions = billingTypes.map((type) => ({
  id: type,
  label: billingTypeLabels[type],
}));
