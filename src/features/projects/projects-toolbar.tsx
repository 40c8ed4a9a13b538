/**
 * Search, filters and the list/board switch of /projects. Everything here is URL state (the
 * screen writes it through onSearchChange); the search box keeps its own text while typing.
 */
import { Columns3, LayoutList, Search } from 'lucide-react';
import type { ReactNode, Ref } from 'react';
import {
  Checkbox,
  Input,
  SearchField,
  ToggleButton,
  ToggleButtonGroup,
} from 'react-aria-components';
import type { ProjectStatus } from '#contract/entities/project.ts';
import type { LocalClient } from '../../db/app-database.ts';
import { SelectField } from '../../ui/select-field.tsx';
import { ClientPicker } from './client-picker.tsx';
import { statusOptions } from './project-options.tsx';
import type { ProjectView } from './projects-search.ts';

export interface ProjectsToolbarProps {
  query: string;
  onQueryChange: (query: string) => void;
  searchRef: Ref<HTMLInputElement>;
  clients: readonly LocalClient[];
  clientId: string | undefined;
  onClientChange: (clientId: string | undefined) => void;
  status: ProjectStatus | undefined;
  onStatusChange: (status: ProjectStatus | undefined) => void;
  showArchived: boolean;
  onShowArchivedChange: (show: boolean) => void;
  view: ProjectView;
  onViewChange: (view: ProjectView) => void;
  /** The "New project" button, beside the search box. */
  createButton: ReactNode;
}

const ALL = 'all';
const statusFilterOptions = [{ id: ALL, label: 'All statuses' } as const, ...statusOptions];

export function ProjectsToolbar(props: ProjectsToolbarProps) {
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-start gap-2 sm:gap-3">
        <SearchField
          value={props.query}
          onChange={props.onQueryChange}
          aria-label="Search projects"
          className="group relative flex min-w-0 flex-1 items-center"
        >
          <Search
            aria-hidden="true"
            size={16}
            className="pointer-events-none absolute left-3 text-fg-muted"
          />
          <Input
            ref={props.searchRef}
            placeholder="Search projects"
            className="min-h-11 w-full rounded-lg border border-border-strong bg-surface pr-10 pl-9 text-base text-fg shadow-xs outline-none placeholder:text-fg-muted data-focused:border-ring data-focused:ring-2 data-focused:ring-ring/30 sm:min-h-10 sm:text-sm [&::-webkit-search-cancel-button]:hidden"
          />
          <kbd
            aria-hidden="true"
            className="pointer-events-none absolute right-3 hidden rounded border border-border px-1.5 text-xs text-fg-muted sm:group-data-empty:inline"
          >
            /
          </kbd>
        </SearchField>
        {props.createButton}
      </div>
      <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap sm:items-center sm:gap-3">
        <ClientPicker
          label="Client"
          isLabelHidden
          clients={props.clients}
          value={props.clientId === undefined ? null : { kind: 'existing', id: props.clientId }}
          onChange={(choice) =>
            props.onClientChange(choice?.kind === 'existing' ? choice.id : undefined)
          }
          placeholder="All clients"
          className="min-w-0 sm:w-60"
        />
        <SelectField
          label="Status"
          isLabelHidden
          options={statusFilterOptions}
          value={props.status ?? ALL}
          onChange={(value) => props.onStatusChange(value === ALL ? undefined : value)}
          className="min-w-0 sm:w-44"
        />
        {/* One row on phones; on wider screens these join the filters' row. */}
        <div className="col-span-2 flex items-center sm:contents">
          <Checkbox
            isSelected={props.showArchived}
            onChange={props.onShowArchivedChange}
            className="group flex min-h-11 cursor-pointer items-center gap-2 px-1 text-sm text-fg sm:min-h-10"
          >
            <span
              aria-hidden="true"
              className="grid size-5 place-items-center rounded border border-border-strong bg-surface group-data-focus-visible:ring-2 group-data-focus-visible:ring-ring group-data-selected:border-brand group-data-selected:bg-brand"
            >
              <svg
                viewBox="0 0 16 16"
                className="hidden size-3.5 text-on-brand group-data-selected:block"
              >
                <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2" />
              </svg>
            </span>
            Show archived
          </Checkbox>
          <ViewSwitch view={props.view} onViewChange={props.onViewChange} />
        </div>
      </div>
    </div>
  );
}

function ViewSwitch({
  view,
  onViewChange,
}: {
  view: ProjectView;
  onViewChange: (view: ProjectView) => void;
}) {
  const options = [
    { id: 'list', label: 'List', Icon: LayoutList },
    { id: 'board', label: 'Board', Icon: Columns3 },
  ] as const;
  return (
    <div className="ml-auto">
      <ToggleButtonGroup
        aria-label="View"
        selectionMode="single"
        disallowEmptySelection
        selectedKeys={[view]}
        onSelectionChange={(keys) => {
          const [first] = keys;
          const next = options.find((option) => option.id === first);
          if (next) onViewChange(next.id);
        }}
        className="inline-flex rounded-lg border border-border bg-surface p-0.5"
      >
        {options.map(({ id, label, Icon }) => (
          <ToggleButton
            key={id}
            id={id}
            className="flex min-h-10 cursor-pointer items-center gap-1.5 rounded-md px-3 text-sm font-medium text-fg-muted outline-none hover:text-fg data-focus-visible:ring-2 data-focus-visible:ring-ring data-selected:bg-brand-soft data-selected:text-brand sm:min-h-8"
          >
            <Icon aria-hidden="true" size={16} />
            {label}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
    </div>
  );
}
