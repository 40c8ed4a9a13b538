/**
 * "Move to…" on a project card or row: the keyboard- and screen-reader-friendly way to change a
 * project's status (the board's columns are statuses, so this moves the card).
 */
import { EllipsisVertical } from 'lucide-react';
import {
  Button,
  Menu,
  MenuItem,
  MenuSection,
  MenuTrigger,
  Popover,
  Header,
} from 'react-aria-components';
import type { ProjectStatus } from '#contract/entities/project.ts';
import { projectStatuses, statusIcons, statusLabels } from './project-labels.ts';

export interface ProjectStatusMenuProps {
  projectName: string;
  status: ProjectStatus;
  onMove: (status: ProjectStatus) => void;
}

export function ProjectStatusMenu({ projectName, status, onMove }: ProjectStatusMenuProps) {
  return (
    <MenuTrigger>
      <Button
        aria-label={`Change status of ${projectName}`}
        className="grid size-11 shrink-0 cursor-pointer place-items-center rounded-lg text-fg-muted outline-none hover:bg-surface-muted hover:text-fg data-focus-visible:ring-2 data-focus-visible:ring-ring data-pressed:bg-surface-muted sm:size-8"
      >
        <EllipsisVertical aria-hidden="true" size={16} />
      </Button>
      <Popover
        placement="bottom end"
        className="min-w-48 rounded-xl border border-border bg-surface p-1 text-fg shadow-lg outline-none"
      >
        <Menu
          className="outline-none"
          onAction={(key) => {
            const next = projectStatuses.find((candidate) => candidate === key);
            if (next && next !== status) onMove(next);
          }}
          disabledKeys={[status]}
        >
          <MenuSection>
            <Header className="px-3 pt-1.5 pb-1 text-xs font-semibold text-fg-muted">
              Move to
            </Header>
            {projectStatuses.map((option) => {
              const Icon = statusIcons[option];
              return (
                <MenuItem
                  key={option}
                  id={option}
                  textValue={statusLabels[option]}
                  className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-3 text-sm outline-none data-disabled:cursor-default data-disabled:text-fg-muted data-focused:bg-surface-muted sm:min-h-9"
                >
                  <Icon aria-hidden="true" size={16} />
                  {statusLabels[option]}
                  {option === status ? <span className="sr-only">(current)</span> : null}
                </MenuItem>
              );
            })}
          </MenuSection>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
