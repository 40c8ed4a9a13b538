import { createFileRoute, useNavigate } from '@tanstack/react-router';
import * as v from 'valibot';
import { billingIntervalSchema, planIdSchema } from '#contract/entities/plan.ts';
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

/** `?plan=pro&interval=year` from the pricing page; anything else is ignored, not an error. */
const requestedPlanSchema = v.object({ planId: planIdSchema, interval: billingIntervalSchema });

export const Route = createFileRoute('/_app/settings')({
  /** `tab`: profile (default), security, billing, storage or about; `plan`, `interval`: billing. */
  validateSearch: v.object({
    tab: optionalSearchString,
    plan: optionalSearchString,
    interval: optionalSearchString,
  }),
  component: SettingsRoute,
});

function SettingsRoute() {
  const { tab, plan, interval } = Route.useSearch();
  const requested = v.safeParse(requestedPlanSchema, {
    planId: plan,
    interval: interval ?? 'month',
  });
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
      requestedPlan={requested.success ? requested.output : null}
    />
  );
}
