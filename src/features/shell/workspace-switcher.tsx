import { useNavigate } from '@tanstack/react-router';
import { Briefcase, Check, ChevronsUpDown } from 'lucide-react';
import { useRef } from 'react';
import {
  Button as AriaButton,
  Menu,
  MenuItem,
  MenuTrigger,
  Popover,
  type Selection,
} from 'react-aria-components';
import type { WorkspaceRole } from '#contract/entities/workspace.ts';
import { choosePreferredWorkspace } from '../members/preferred-workspace.ts';
import { focusPageHeading } from '../../ui/focus-page-heading.ts';
import { useOptionalSync } from '../workspace/sync-context.tsx';
import { useWorkspaceChoices } from '../workspace/use-workspace.ts';

const roleWords: Record<WorkspaceRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
};

/**
 * The header's workspace name and, for someone in several workspaces, the menu that switches
 * between them. Every workspace the user belongs to is in the device's database, so switching
 * works offline: it records the choice (which the screens follow at once, other tabs through the
 * storage event) and opens the dashboard, since a screen of the old workspace must not stay open.
 */
export function WorkspaceSwitcher() {
  const sync = useOptionalSync();
  // Sync starts a moment after sign-in; the name follows once the database is open.
  if (!sync) return null;
  return <Switcher userId={sync.userId} />;
}

function Switcher({ userId }: { userId: string }) {
  const result = useWorkspaceChoices();
  const navigate = useNavigate();
  const trigger = useRef<HTMLButtonElement>(null);
  const current = result?.current;
  if (!result || !current) return null;
  const { choices } = result;

  if (choices.length < 2) {
    return (
      <p className="hidden min-w-0 items-center gap-2 text-sm font-semibold text-fg sm:flex">
        <Briefcase aria-hidden="true" size={16} className="shrink-0 text-fg-muted" />
        <span className="truncate">
          <span className="sr-only">Workspace: </span>
          {current.name}
        </span>
      </p>
    );
  }

  const onSelectionChange = (keys: Selection) => {
    if (keys === 'all') return;
    const [first] = keys;
    if (first === undefined || first === current.id) return;
    choosePreferredWorkspace(userId, String(first));
    void navigate({ to: '/dashboard' }).then(() => focusPageHeading(trigger.current));
  };

  return (
    <MenuTrigger>
      <AriaButton
        ref={trigger}
        aria-label={`Workspace: ${current.name}`}
        className="flex min-h-11 min-w-11 cursor-pointer items-center justify-center gap-1 rounded-lg px-2 text-sm font-semibold text-fg outline-none hover:bg-surface-muted data-focus-visible:ring-2 data-focus-visible:ring-brand sm:max-w-64 sm:justify-start sm:gap-2"
      >
        {/* Phones have room for the icon alone: the name is in its label and the menu. */}
        <Briefcase aria-hidden="true" size={16} className="shrink-0 text-fg-muted" />
        <span className="hidden truncate sm:block">{current.name}</span>
        <ChevronsUpDown aria-hidden="true" size={16} className="shrink-0 text-fg-muted" />
      </AriaButton>
      <Popover
        placement="bottom start"
        className="max-w-[calc(100vw-2rem)] min-w-64 rounded-xl border border-border bg-surface p-1 shadow-lg outline-none"
      >
        <Menu
          aria-label="Workspaces"
          selectionMode="single"
          selectedKeys={[current.id]}
          onSelectionChange={onSelectionChange}
          disallowEmptySelection
          className="outline-none"
        >
          {choices.map(({ workspace, role }) => (
            <MenuItem
              key={workspace.id}
              id={workspace.id}
              textValue={workspace.name}
              className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md px-3 py-1.5 text-sm text-fg outline-none data-focused:bg-surface-muted"
            >
              {({ isSelected }) => (
                <>
                  <span className="flex min-w-0 flex-col">
                    <span className={`truncate ${isSelected ? 'font-semibold text-brand' : ''}`}>
                      {workspace.name}
                    </span>
                    {role ? <span className="text-xs text-fg-muted">{roleWords[role]}</span> : null}
                  </span>
                  {isSelected ? (
                    <Check aria-hidden="true" size={16} className="ml-auto shrink-0 text-brand" />
                  ) : null}
                </>
              )}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
