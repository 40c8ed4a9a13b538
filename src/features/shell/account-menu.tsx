import { Check, LogOut, Monitor, Moon, Settings, Sun } from 'lucide-react';
import {
  Button as AriaButton,
  Header,
  Menu,
  MenuItem,
  MenuSection,
  MenuTrigger,
  Popover,
  Separator,
  type Selection,
} from 'react-aria-components';
import type { AuthUser } from '../../auth/auth-controller.ts';
import { parseThemePreference } from '../../ui/theme.ts';
import { useTheme } from '../../ui/use-theme.ts';
import { initials } from '../../ui/initials.ts';

export interface AccountMenuProps {
  user: AuthUser;
  onSignOut: () => void;
}

const itemClass =
  'flex min-h-11 cursor-pointer items-center gap-3 rounded-md px-3 text-sm text-fg outline-none data-focused:bg-surface-muted sm:min-h-9';

/** The signed-in user's menu: who is signed in, settings, colour theme and sign out. */
export function AccountMenu({ user, onSignOut }: AccountMenuProps) {
  const { preference, setPreference } = useTheme();
  const name = user.displayName || user.email;
  const onThemeChange = (keys: Selection) => {
    if (keys === 'all') return;
    const [first] = keys;
    if (first !== undefined) setPreference(parseThemePreference(first));
  };
  return (
    <MenuTrigger>
      <AriaButton
        aria-label={`Account: ${name}`}
        className="grid size-11 cursor-pointer place-items-center rounded-full bg-brand-soft text-sm font-bold text-brand sm:size-10"
      >
        {initials(name)}
      </AriaButton>
      <Popover
        placement="bottom end"
        className="min-w-60 rounded-xl border border-border bg-surface p-1 shadow-lg outline-none"
      >
        <Menu aria-label="Account" className="outline-none">
          <MenuSection>
            <Header className="px-3 py-2">
              <span className="block truncate text-sm font-semibold text-fg">{name}</span>
              <span className="block truncate text-xs text-fg-muted">{user.email}</span>
            </Header>
            <MenuItem href="/settings" className={itemClass}>
              <Settings aria-hidden="true" size={16} /> Settings
            </MenuItem>
          </MenuSection>
          <Separator className="my-1 border-t border-border" />
          <MenuSection
            selectionMode="single"
            selectedKeys={[preference]}
            onSelectionChange={onThemeChange}
            disallowEmptySelection
          >
            <Header className="px-3 pt-2 pb-1 text-xs font-semibold text-fg-muted uppercase">
              Theme
            </Header>
            <MenuItem
              id="light"
              textValue="Light"
              className={`${itemClass} data-selected:text-brand`}
            >
              {({ isSelected }) => (
                <>
                  <Sun aria-hidden="true" size={16} /> Light
                  {isSelected ? <Check aria-hidden="true" size={16} className="ml-auto" /> : null}
                </>
              )}
            </MenuItem>
            <MenuItem
              id="dark"
              textValue="Dark"
              className={`${itemClass} data-selected:text-brand`}
            >
              {({ isSelected }) => (
                <>
                  <Moon aria-hidden="true" size={16} /> Dark
                  {isSelected ? <Check aria-hidden="true" size={16} className="ml-auto" /> : null}
                </>
              )}
            </MenuItem>
            <MenuItem
              id="system"
              textValue="System"
              className={`${itemClass} data-selected:text-brand`}
            >
              {({ isSelected }) => (
                <>
                  <Monitor aria-hidden="true" size={16} /> System
                  {isSelected ? <Check aria-hidden="true" size={16} className="ml-auto" /> : null}
                </>
              )}
            </MenuItem>
          </MenuSection>
          <Separator className="my-1 border-t border-border" />
          <MenuSection>
            <MenuItem onAction={onSignOut} className={itemClass}>
              <LogOut aria-hidden="true" size={16} /> Sign out
            </MenuItem>
          </MenuSection>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
