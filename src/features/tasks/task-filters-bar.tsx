/** The filters above the board: assignee, label and due date, plus a way to clear them. */
import type { LocalMember } from '../../db/app-database.ts';
import type { LocalTask } from '../../data/project-work.ts';
import { Button } from '../../ui/button.tsx';
import { SelectField, type SelectOption } from '../../ui/select-field.tsx';
import {
  allLabels,
  ANY,
  dueFilterWords,
  isFiltering,
  noFilters,
  UNASSIGNED,
  type DueFilter,
  type TaskFilters,
} from './task-filters.ts';

export interface TaskFiltersBarProps {
  filters: TaskFilters;
  onChange: (filters: TaskFilters) => void;
  tasks: readonly LocalTask[];
  members: readonly LocalMember[];
}

export function TaskFiltersBar({ filters, onChange, tasks, members }: TaskFiltersBarProps) {
  const assignees: SelectOption<string>[] = [
    { id: ANY, label: 'Anyone' },
    { id: UNASSIGNED, label: 'Unassigned' },
    ...members.map((member) => ({
      id: member.id,
      label: `${member.firstName} ${member.lastName}`.trim() || member.email,
    })),
  ];
  const labels: SelectOption<string>[] = [
    { id: ANY, label: 'Any label' },
    ...allLabels(tasks).map((label) => ({ id: label, label })),
  ];
  // A label filter whose label is gone still shows (and can be cleared).
  if (!labels.some((option) => option.id === filters.label)) {
    labels.push({ id: filters.label, label: filters.label });
  }
  const dues = (Object.keys(dueFilterWords) as DueFilter[]).map((id) => ({
    id,
    label: dueFilterWords[id],
  }));
  return (
    <div
      role="group"
      aria-label="Filter tasks"
      className="flex flex-wrap items-end gap-2 [&>*]:min-w-36 [&>*]:flex-1 sm:[&>*]:flex-none"
    >
      <SelectField
        label="Assignee"
        options={assignees}
        value={filters.assignee}
        onChange={(assignee) => onChange({ ...filters, assignee })}
        triggerClassName="sm:w-40"
      />
      <SelectField
        label="Label"
        options={labels}
        value={filters.label}
        onChange={(label) => onChange({ ...filters, label })}
        triggerClassName="sm:w-40"
      />
      <SelectField
        label="Due"
        options={dues}
        value={filters.due}
        onChange={(due) => onChange({ ...filters, due })}
        triggerClassName="sm:w-40"
      />
      {isFiltering(filters) ? (
        <Button variant="ghost" onPress={() => onChange(noFilters)}>
          Clear filters
        </Button>
      ) : null}
    </div>
  );
}
