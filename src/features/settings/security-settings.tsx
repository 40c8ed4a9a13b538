import { Lock, LogOut } from 'lucide-react';
import { useState } from 'react';
import type { AuthServices } from '../../auth/auth-client.ts';
import { describeAuthError } from '../../auth/describe-auth-error.ts';
import { Button } from '../../ui/button.tsx';
import { useToast } from '../../ui/use-toast.ts';
import { ChoosePasswordForm } from '../auth/choose-password-form.tsx';
import { FormAlert } from '../auth/form-alert.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { GoogleLinkSettings } from './google-link-settings.tsx';
import { SettingsSection } from './settings-section.tsx';
import { TwoFactorSettings } from './two-factor-settings.tsx';

export interface SecuritySettingsProps {
  services: AuthServices;
  /** Where Google returns to after linking (this tab). */
  returnPath: string;
}

/** Settings > Security: two-step verification, Google, password, and signing out everywhere. */
export function SecuritySettings({ services, returnPath }: SecuritySettingsProps) {
  const toast = useToast();
  const [isConfirming, setConfirming] = useState(false);
  const [isSigningOut, setSigningOut] = useState(false);
  const [signOutFailure, setSignOutFailure] = useState<string | null>(null);

  const signOutEverywhere = async () => {
    setSigningOut(true);
    // `global` ends every session of the account, this one included; the guard then shows /login.
    const { error } = await services.client.signOut({ scope: 'global' });
    setSigningOut(false);
    setConfirming(false);
    if (error) setSignOutFailure(describeAuthError(error).message);
  };

  return (
    <div className="flex flex-col gap-6">
      <TwoFactorSettings services={services} />
      <GoogleLinkSettings services={services} returnPath={returnPath} />
      <SettingsSection
        title="Password"
        description="Use at least 8 characters. Common passwords are refused."
        icon={<Lock aria-hidden="true" size={20} />}
      >
        <div className="max-w-md">
          <ChoosePasswordForm
            services={services}
            submitLabel="Change password"
            onChanged={() => toast.show({ tone: 'success', message: 'Password changed' })}
          />
        </div>
      </SettingsSection>
      <SettingsSection
        title="Sign out everywhere"
        description="Ends your sessions on every device and browser, including this one."
        icon={<LogOut aria-hidden="true" size={20} />}
      >
        <div className="flex flex-col gap-4">
          {signOutFailure ? <FormAlert>{signOutFailure}</FormAlert> : null}
          <Button variant="danger" className="self-start" onPress={() => setConfirming(true)}>
            Sign out everywhere
          </Button>
        </div>
        <ConfirmDialog
          isOpen={isConfirming}
          title="Sign out everywhere?"
          confirmLabel="Sign out everywhere"
          isDestructive
          isPending={isSigningOut}
          onConfirm={() => void signOutEverywhere()}
          onCancel={() => setConfirming(false)}
        >
          Every device signed in to your account, this one included, will need to sign in again.
        </ConfirmDialog>
      </SettingsSection>
    </div>
  );
}
