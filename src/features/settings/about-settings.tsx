import { Server } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { getVersion } from '#contract/endpoints/system.ts';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { FormAlert } from '../auth/form-alert.tsx';
import { apiErrorMessage } from './api-error-message.ts';
import { SettingsSection } from './settings-section.tsx';

export interface AboutSettingsProps {
  callEndpoint: CallEndpoint;
}

type Loaded =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; version: string; schemaVersion: number | null };

/** Settings > About: which server build the app talks to (system get-version). */
export function AboutSettings({ callEndpoint }: AboutSettingsProps) {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });

  const load = useCallback(async () => {
    setLoaded({ status: 'loading' });
    try {
      const { version, schemaVersion } = await callEndpoint(getVersion, { query: {} });
      setLoaded({ status: 'ready', version, schemaVersion });
    } catch (error) {
      setLoaded({ status: 'failed', message: apiErrorMessage(error) });
    }
  }, [callEndpoint]);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <SettingsSection
      title="About Satchel"
      description="The offline-first workspace for freelancers and agencies."
      icon={<Server aria-hidden="true" size={20} />}
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
          The server version could not be read. {loaded.message}
        </FormAlert>
      ) : (
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          <dt className="text-fg-muted">Server version</dt>
          <dd className="font-mono text-fg">{loaded.version}</dd>
          <dt className="text-fg-muted">Database schema</dt>
          <dd className="font-mono text-fg">{loaded.schemaVersion ?? 'unknown'}</dd>
        </dl>
      )}
    </SettingsSection>
  );
}
