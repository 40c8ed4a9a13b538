import {
  Archive,
  Building2,
  CreditCard,
  HardDrive,
  Info,
  ShieldCheck,
  UserRound,
  Users,
} from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Tab, TabList, TabPanel, Tabs, type Key } from 'react-aria-components';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { BillingInterval, PlanId } from '#contract/entities/plan.ts';
import { useAuth, useSignOut } from '../../auth/auth-provider.tsx';
import { useAuthServices } from '../../auth/auth-services.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { FormAlert } from '../auth/form-alert.tsx';
import { isDemoUser } from '../../demo/demo-mode.ts';
import { authUnavailableMessage } from '../auth/auth-unavailable.ts';
import { AboutSettings } from './about-settings.tsx';
import { leaveDeletedAccount } from './account-deleted.ts';
import { BillingSettings } from './billing-settings.tsx';
import { CalendarFeedSettings } from './calendar-feed-settings.tsx';
import { DeleteAccountSettings } from './delete-account-settings.tsx';
import { ProfileSettings } from './profile-settings.tsx';
import { SecuritySettings } from './security-settings.tsx';
import { TestNotificationSettings } from './test-notification-settings.tsx';
import { StorageSettings } from './storage-settings.tsx';
import { MembersSettings } from './members-settings.tsx';
import { WorkspaceDetailsSettings } from './workspace-details-settings.tsx';
import { WorkspaceLogoSettings } from './workspace-logo-settings.tsx';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { LoadedModule } from '../../ui/loaded-module.tsx';

// Export and import (fflate, papaparse) load only when the Data tab opens: most visits to settings
// never need them, and the chunk stays out of the precache (vite.config.ts rarelyUsedModules).
const loadDataSettings = () => import('./data-settings.tsx');

export const settingsTabs = [
  'profile',
  'security',
  'workspace',
  'members',
  'billing',
  'storage',
  'data',
  'about',
] as const;
export type SettingsTab = (typeof settingsTabs)[number];

export interface SettingsScreenProps {
  tab: SettingsTab;
  onTabChange: (tab: SettingsTab) => void;
  callEndpoint: CallEndpoint;
  /** The plan picked on the pricing page, shown on the billing tab. */
  requestedPlan?: { planId: PlanId; interval: BillingInterval } | null;
}

const tabs: { id: SettingsTab; label: string; Icon: typeof Info }[] = [
  { id: 'profile', label: 'Profile', Icon: UserRound },
  { id: 'security', label: 'Security', Icon: ShieldCheck },
  { id: 'workspace', label: 'Workspace', Icon: Building2 },
  { id: 'members', label: 'Members', Icon: Users },
  { id: 'billing', label: 'Billing', Icon: CreditCard },
  { id: 'storage', label: 'Storage', Icon: HardDrive },
  { id: 'data', label: 'Data', Icon: Archive },
  { id: 'about', label: 'About', Icon: Info },
];

const tabClassName =
  'flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-3 text-sm font-medium whitespace-nowrap text-fg-muted outline-none hover:text-fg data-selected:bg-brand-soft data-selected:text-brand sm:min-h-10';

/**
 * /settings: profile, security, workspace (its logo), members, billing, storage, data and about,
 * one tab each (the tab is in the URL).
 */
export function SettingsScreen({
  tab,
  onTabChange,
  callEndpoint,
  requestedPlan = null,
}: SettingsScreenProps) {
  usePageTitle('Settings');
  const auth = useAuth();
  const services = useAuthServices();
  const signOut = useSignOut();

  // On a phone the five tabs overflow sideways; a tab opened by URL must not sit out of view.
  const tabListRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // After the next frame: react-aria renders the tabs after its collection pass.
    const frame = requestAnimationFrame(() => {
      const selected = tabListRef.current?.querySelector<HTMLElement>('[aria-selected="true"]');
      selected?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    });
    return () => cancelAnimationFrame(frame);
  }, [tab]);

  const onSelectionChange = (key: Key) => {
    const next = settingsTabs.find((id) => id === key);
    if (next) onTabChange(next);
  };

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-3xl font-bold tracking-tight text-fg sm:text-4xl">Settings</h1>
      <Tabs selectedKey={tab} onSelectionChange={onSelectionChange} className="flex flex-col gap-6">
        <TabList
          ref={tabListRef}
          aria-label="Settings sections"
          className="-mx-1 flex gap-1 overflow-x-auto border-b border-border px-1 pb-2"
        >
          {tabs.map(({ id, label, Icon }) => (
            <Tab key={id} id={id} className={tabClassName}>
              <Icon aria-hidden="true" size={16} />
              {label}
            </Tab>
          ))}
        </TabList>
        <TabPanel id="profile" className="outline-none">
          {auth.status === 'authenticated' ? (
            <div className="flex flex-col gap-6">
              <ProfileSettings user={auth.user} callEndpoint={callEndpoint} />
              <TestNotificationSettings callEndpoint={callEndpoint} />
              <CalendarFeedSettings callEndpoint={callEndpoint} />
              <DeleteAccountSettings
                callEndpoint={callEndpoint}
                onDeleted={() => leaveDeletedAccount(auth.user.id, signOut)}
              />
            </div>
          ) : null}
        </TabPanel>
        <TabPanel id="security" className="outline-none">
          {services ? (
            <SecuritySettings services={services} returnPath="/settings?tab=security" />
          ) : (
            <FormAlert tone="info">
              {auth.status === 'authenticated' && isDemoUser(auth.user)
                ? 'The demo has no sign-in to secure: create your account to set a password, a second factor and your sessions.'
                : authUnavailableMessage}
            </FormAlert>
          )}
        </TabPanel>
        <TabPanel id="workspace" className="flex flex-col gap-6 outline-none">
          <WorkspaceDetailsSettings />
          <WorkspaceLogoSettings />
        </TabPanel>
        <TabPanel id="members" className="outline-none">
          <MembersSettings />
        </TabPanel>
        <TabPanel id="billing" className="outline-none">
          <BillingSettings requested={requestedPlan} />
        </TabPanel>
        <TabPanel id="storage" className="outline-none">
          <StorageSettings />
        </TabPanel>
        <TabPanel id="data" className="outline-none">
          <LoadedModule
            load={loadDataSettings}
            fallback={
              <p role="status" className="flex items-center gap-2 text-fg-muted">
                <Spinner size="small" /> Loading...
              </p>
            }
            // Its chunk is kept out of the offline copy: opened offline before it was ever
            // opened online, it cannot load. Said here, with the rest of Settings still working.
            failed={(retry) => (
              <div role="alert" className="flex flex-col items-start gap-3">
                <p className="text-fg">
                  Export and import have not been opened on this device yet, so the first time they
                  need a connection. Once opened, they work offline too.
                </p>
                <Button variant="secondary" onPress={retry}>
                  Try again
                </Button>
              </div>
            )}
          >
            {({ DataSettings }) => <DataSettings />}
          </LoadedModule>
        </TabPanel>
        <TabPanel id="about" className="outline-none">
          <AboutSettings callEndpoint={callEndpoint} />
        </TabPanel>
      </Tabs>
    </div>
  );
}
