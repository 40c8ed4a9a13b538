import type { UserIdentity } from '@supabase/supabase-js';
import { useCallback, useEffect, useState } from 'react';
import type { AuthServices } from '../../auth/auth-client.ts';
import { describeAuthError } from '../../auth/describe-auth-error.ts';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { useToast } from '../../ui/use-toast.ts';
import { FormAlert } from '../auth/form-alert.tsx';
import { GoogleMark } from '../auth/google-sign-in-button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { SettingsSection } from './settings-section.tsx';

export interface GoogleLinkSettingsProps {
  services: AuthServices;
  /** Where Google sends the user back after linking. */
  returnPath: string;
}

type Loaded =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; identities: UserIdentity[] };

/**
 * Sign in with Google too (`linkIdentity`, a round trip to Google and back here), or stop
 * (`unlinkIdentity`). The auth service refuses to remove the last way to sign in; the button says
 * so before anyone tries.
 */
export function GoogleLinkSettings({ services, returnPath }: GoogleLinkSettingsProps) {
  const { client } = services;
  const toast = useToast();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [failure, setFailure] = useState<string | null>(null);
  const [isLinking, setLinking] = useState(false);
  const [isConfirming, setConfirming] = useState(false);
  const [isUnlinking, setUnlinking] = useState(false);

  const load = useCallback(async () => {
    const { data, error } = await client.getUserIdentities();
    setLoaded(
      error
        ? { status: 'failed', message: describeAuthError(error).message }
        : { status: 'ready', identities: data.identities },
    );
  }, [client]);

  useEffect(() => {
    void load();
  }, [load]);

  const link = async () => {
    setLinking(true);
    setFailure(null);
    const { error } = await client.linkIdentity({
      provider: 'google',
      options: { redirectTo: services.redirectUrl(returnPath) },
    });
    // On success the browser is on its way to Google.
    if (error) {
      setLinking(false);
      setFailure(describeAuthError(error).message);
    }
  };

  const unlink = async (identity: UserIdentity) => {
    setUnlinking(true);
    const { error } = await client.unlinkIdentity(identity);
    setUnlinking(false);
    setConfirming(false);
    if (error) {
      setFailure(describeAuthError(error).message);
      return;
    }
    setFailure(null);
    toast.show({ tone: 'success', message: 'Google is unlinked' });
    await load();
  };

  const identities = loaded.status === 'ready' ? loaded.identities : [];
  const google = identities.find((identity) => identity.provider === 'google');
  const googleEmail =
    typeof google?.identity_data?.['email'] === 'string' ? google.identity_data['email'] : null;
  const isOnlyIdentity = identities.length <= 1;

  return (
    <SettingsSection
      title="Google"
      description="Sign in with your Google account instead of a password."
      icon={<GoogleMark />}
    >
      {loaded.status === 'loading' ? (
        <p role="status" className="flex items-center gap-2 text-fg-muted">
          <Spinner size="small" /> Loading...
        </p>
      ) : loaded.status === 'failed' ? (
        <FormAlert
          action={
            <Button variant="secondary" onPress={() => void load()}>
              Try again
            </Button>
          }
        >
          {loaded.message}
        </FormAlert>
      ) : (
        <div className="flex flex-col gap-4">
          {failure ? <FormAlert>{failure}</FormAlert> : null}
          {google ? (
            <>
              <p className="text-sm text-fg">
                Linked
                {googleEmail ? (
                  <>
                    {' '}
                    to <strong className="font-semibold wrap-anywhere">{googleEmail}</strong>
                  </>
                ) : null}
                .
              </p>
              <div className="flex flex-col gap-2">
                <Button
                  variant="secondary"
                  className="self-start"
                  isDisabled={isOnlyIdentity}
                  onPress={() => setConfirming(true)}
                >
                  Unlink Google
                </Button>
                {isOnlyIdentity ? (
                  <p className="text-sm text-fg-muted">
                    Google is your only way to sign in. Set a password below before unlinking it.
                  </p>
                ) : null}
              </div>
              <ConfirmDialog
                isOpen={isConfirming}
                title="Unlink Google?"
                confirmLabel="Unlink"
                isDestructive
                isPending={isUnlinking}
                onConfirm={() => void unlink(google)}
                onCancel={() => setConfirming(false)}
              >
                You will no longer be able to sign in with this Google account.
              </ConfirmDialog>
            </>
          ) : services.googleEnabled ? (
            <Button
              variant="secondary"
              className="self-start"
              isPending={isLinking}
              onPress={() => void link()}
            >
              {isLinking ? <Spinner size="small" /> : <GoogleMark />}
              Link Google account
            </Button>
          ) : (
            <p className="text-sm text-fg-muted">This server does not offer Google sign-in.</p>
          )}
        </div>
      )}
    </SettingsSection>
  );
}
