import { createFileRoute, useNavigate } from '@tanstack/react-router';
import * as v from 'valibot';
import {
  SettingsScreen,
  settingsTabs,
  type SettingsTab,
} from '../../features/settings/settings-screen.tsx';
import { optionalSearchString } from '../-route-schemas.ts';

/** An unknown tab shows the profile; the URL keeps what was typed (so returnTo round-trips). */
function toTab(value: string | undefined): SettingsTab {
  return settingsTabs.find((tab) => tab === value) ?? 'profile';
}

export const Route = createFileRoute('/_app/settings')({
  /** `tab`: profile (default), security or about. */
  validateSearch: v.object({ tab: optionalSearchString }),
  component: SettingsRoute,
});

function SettingsRoute() {
  const { tab } = Route.useSearch();
  const { api } = Route.useRouteContext();
  const navigate = useNavigate();
  return (
    <SettingsScreen
      tab={toTab(tab)}
      onTabChange={(next) =>
        void navigate({
          to: '/settings',
          search: { tab: next === 'profile' ? undefined : next },
          replace: true,
        })
      }
      callEndpoint={api.callEndpoint}
    />
  );
}
