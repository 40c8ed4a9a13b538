import type { Factor } from '@supabase/supabase-js';
import { KeyRound, Plus, ShieldCheck, Smartphone, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import type { AuthServices } from '../../auth/auth-client.ts';
import { describeAuthError } from '../../auth/describe-auth-error.ts';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { useToast } from '../../ui/use-toast.ts';
import { FormAlert } from '../auth/form-alert.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { PhoneEnrolment } from './phone-enrolment.tsx';
import { SettingsSection } from './settings-section.tsx';
import { TotpEnrolment } from './totp-enrolment.tsx';

export interface TwoFactorSettingsProps {
  services: AuthServices;
}

type Loaded =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; all: Factor[] };

const typeLabel: Record<string, string> = {
  totp: 'Authenticator app',
  phone: 'Text message',
};

/**
 * Two-step verification: the verified factors with a remove button, and the two ways to add one
 * (authenticator app, phone). Removing a verified factor needs an `aal2` session, which a user
 * who has one already signed in with.
 */
export function TwoFactorSettings({ services }: TwoFactorSettingsProps) {
  const { client } = services;
  const toast = useToast();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [adding, setAdding] = useState<'totp' | 'phone' | null>(null);
  const [removing, setRemoving] = useState<Factor | null>(null);
  const [isRemoving, setIsRemoving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const load = useCallback(async () => {
    const { data, error } = await client.mfa.listFactors();
    setLoaded(
      error
        ? { status: 'failed', message: describeAuthError(error).message }
        : { status: 'ready', all: data.all },
    );
  }, [client]);

  useEffect(() => {
    void load();
  }, [load]);

  const remove = async () => {
    if (!removing) return;
    setIsRemoving(true);
    const { error } = await client.mfa.unenroll({ factorId: removing.id });
    setIsRemoving(false);
    setRemoving(null);
    if (error) {
      setFailure(describeAuthError(error).message);
      return;
    }
    setFailure(null);
    toast.show({
      tone: 'success',
      message: `${removing.friendly_name ?? 'The method'} is removed`,
    });
    await load();
  };

  const finishAdding = async (message: string) => {
    setAdding(null);
    setFailure(null);
    toast.show({ tone: 'success', message });
    await load();
  };

  const verified =
    loaded.status === 'ready' ? loaded.all.filter((f) => f.status === 'verified') : [];
  const all = loaded.status === 'ready' ? loaded.all : [];

  return (
    <SettingsSection
      title="Two-step verification"
      description="After your password, ask for a code from your phone. Turning it on signs out your other devices."
      icon={<ShieldCheck aria-hidden="true" size={20} />}
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
          {verified.length === 0 ? (
            <p className="text-sm text-fg-muted">Off. Only your password protects your account.</p>
          ) : (
            <ul
              className="flex flex-col divide-y divide-border rounded-xl border border-border"
              aria-label="Your verification methods"
            >
              {verified.map((factor) => (
                <li key={factor.id} className="flex items-center gap-3 p-3">
                  <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-surface-muted text-fg-muted">
                    {factor.factor_type === 'phone' ? (
                      <Smartphone aria-hidden="true" size={18} />
                    ) : (
                      <KeyRound aria-hidden="true" size={18} />
                    )}
                  </span>
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-medium text-fg">
                      {factor.friendly_name ?? typeLabel[factor.factor_type] ?? factor.factor_type}
                    </p>
                    {factor.friendly_name &&
                    factor.friendly_name !== typeLabel[factor.factor_type] ? (
                      <p className="text-xs text-fg-muted">
                        {typeLabel[factor.factor_type] ?? factor.factor_type}
                      </p>
                    ) : null}
                  </div>
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove ${factor.friendly_name ?? 'this method'}`}
                    onPress={() => setRemoving(factor)}
                  >
                    <Trash2 aria-hidden="true" size={18} />
                  </Button>
                </li>
              ))}
            </ul>
          )}
          {adding === 'totp' ? (
            <TotpEnrolment
              services={services}
              factors={all}
              onDone={() => void finishAdding('Authenticator app added')}
              onCancel={() => setAdding(null)}
            />
          ) : adding === 'phone' ? (
            <PhoneEnrolment
              services={services}
              factors={all}
              onDone={() => void finishAdding('Phone added')}
              onCancel={() => setAdding(null)}
            />
          ) : (
            <div className="flex flex-col gap-3 sm:flex-row">
              <Button variant="secondary" onPress={() => setAdding('totp')}>
                <Plus aria-hidden="true" size={16} /> Add an authenticator app
              </Button>
              <Button variant="secondary" onPress={() => setAdding('phone')}>
                <Plus aria-hidden="true" size={16} /> Add a phone
              </Button>
            </div>
          )}
        </div>
      )}
      <ConfirmDialog
        isOpen={removing !== null}
        title={`Remove ${removing?.friendly_name ?? 'this method'}?`}
        confirmLabel="Remove"
        isDestructive
        isPending={isRemoving}
        onConfirm={() => void remove()}
        onCancel={() => setRemoving(null)}
      >
        {verified.length <= 1
          ? 'It is your only second step: afterwards your password alone signs you in.'
          : 'You can still sign in with your other methods.'}
      </ConfirmDialog>
    </SettingsSection>
  );
}
