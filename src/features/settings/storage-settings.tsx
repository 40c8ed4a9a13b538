import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { HardDrive } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { Label, Meter } from 'react-aria-components';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { FormAlert } from '../auth/form-alert.tsx';
import { FileStorageSettings } from '../files/file-storage-settings.tsx';
import {
  browserDeviceStorage,
  readDeviceStorage,
  type DeviceStorage,
  type DeviceStorageReport,
} from './device-storage.ts';
import { formatBytes } from './format-bytes.ts';
import { SettingsSection } from './settings-section.tsx';

export interface StorageSettingsProps {
  /** The browser's storage manager; tests pass a fake, null means the browser has none. */
  storage?: DeviceStorage | null;
  /** The API client for the workspace's file storage; the app's by default. */
  callEndpoint?: CallEndpoint;
}

type Loaded = { status: 'loading' } | { status: 'ready'; report: DeviceStorageReport };

type Request = 'idle' | 'asking' | 'granted' | 'declined' | 'failed';

/**
 * Settings > Storage: how much this browser holds for Satchel, and whether it may clear it. The
 * offline data and the changes waiting to sync live only here until they reach the server, so a
 * browser evicting "best-effort" storage under disk pressure would lose them; persistence stops
 * that, and the user deserves to know which one they have. Below it: the workspace's file
 * storage on the server and the files kept on this device (file-storage-settings.tsx).
 */
export function StorageSettings({
  storage = browserDeviceStorage(),
  callEndpoint,
}: StorageSettingsProps) {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [request, setRequest] = useState<Request>('idle');

  const load = useCallback(async () => {
    if (!storage) return;
    const report = await readDeviceStorage(storage);
    setLoaded({ status: 'ready', report });
  }, [storage]);

  useEffect(() => {
    void load();
  }, [load]);

  const requestPersistence = async () => {
    if (!storage?.persist) return;
    setRequest('asking');
    try {
      const granted = await storage.persist();
      setRequest(granted ? 'granted' : 'declined');
    } catch {
      setRequest('failed');
    }
    await load();
  };

  return (
    <div className="flex flex-col gap-6">
      <SettingsSection
        title="Storage on this device"
        description="Satchel keeps your workspace in this browser so it opens instantly and works offline. Changes you make offline stay here until they are saved to the server."
        icon={<HardDrive aria-hidden="true" size={20} />}
      >
        {!storage ? (
          <FormAlert tone="info">
            This browser does not report its storage, so Satchel cannot show how much space it uses
            or ask to keep it. Your data still works offline; sync often so the server has a copy.
          </FormAlert>
        ) : loaded.status === 'loading' ? (
          <p role="status" className="flex items-center gap-2 text-fg-muted">
            <Spinner size="small" /> Reading storage...
          </p>
        ) : (
          <div className="flex flex-col gap-6">
            <Usage estimate={loaded.report.estimate} />
            <Persistence
              report={loaded.report}
              request={request}
              onRequest={() => void requestPersistence()}
            />
          </div>
        )}
      </SettingsSection>
      <FileStorageSettings {...(callEndpoint ? { callEndpoint } : {})} />
    </div>
  );
}

function Usage({ estimate }: { estimate: DeviceStorageReport['estimate'] }) {
  if (!estimate) {
    return (
      <p className="text-sm text-fg-muted">
        This browser does not say how much space Satchel uses or may use.
      </p>
    );
  }
  const { usage, quota } = estimate;
  const valueText = `${formatBytes(usage)} of ${formatBytes(quota)}`;
  return (
    <Meter
      value={usage}
      minValue={0}
      maxValue={Math.max(quota, 1)}
      valueLabel={valueText}
      className="flex flex-col gap-2"
    >
      {({ percentage }) => (
        <>
          <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
            <Label className="text-sm font-medium text-fg">Space used</Label>
            <span className="text-sm text-fg tabular-nums">{valueText}</span>
          </div>
          <div className="h-2 overflow-hidden rounded-full bg-border">
            <div
              className="h-full rounded-full bg-brand"
              // At least a sliver, so a few kilobytes of a large quota still read as "some".
              style={{ width: `${usage > 0 ? Math.max(percentage, 1) : 0}%` }}
            />
          </div>
          <p className="text-xs text-fg-muted">
            The limit is what this browser allows Satchel, usually a share of the free disk space;
            it changes as the disk fills.
          </p>
        </>
      )}
    </Meter>
  );
}

function Persistence({
  report,
  request,
  onRequest,
}: {
  report: DeviceStorageReport;
  request: Request;
  onRequest: () => void;
}) {
  return (
    <div className="flex flex-col gap-3 border-t border-border pt-5">
      <h3 className="text-sm font-medium text-fg">Persistent storage</h3>
      {report.persisted === true ? (
        <FormAlert tone="success">
          Persistent: the browser will not clear Satchel&apos;s data to free up space. It goes only
          if you clear it yourself (for example by clearing site data).
        </FormAlert>
      ) : (
        <>
          <p className="text-sm text-fg-muted">
            {report.persisted === false
              ? 'Not persistent yet: when the disk runs low, the browser may clear Satchel’s data without asking, including changes that have not reached the server.'
              : 'This browser does not say whether it may clear Satchel’s data when the disk runs low.'}
          </p>
          {report.canRequestPersistence ? (
            <div>
              <Button variant="secondary" isPending={request === 'asking'} onPress={onRequest}>
                {request === 'asking' ? 'Asking the browser...' : 'Keep data on this device'}
              </Button>
            </div>
          ) : (
            <p className="text-sm text-fg-muted">
              This browser cannot be asked to keep it. Installing Satchel as an app helps in some
              browsers.
            </p>
          )}
          {request === 'declined' ? (
            <FormAlert tone="info">
              The browser said no for now. Browsers decide this themselves: most agree for sites you
              use often, bookmark or install as an app, and some ask you first. Try again later, or
              install Satchel from the browser&apos;s menu.
            </FormAlert>
          ) : request === 'failed' ? (
            <FormAlert>The browser could not be asked. Reload the page and try again.</FormAlert>
          ) : null}
        </>
      )}
      {request === 'granted' && report.persisted !== true ? (
        <FormAlert tone="success">The browser agreed to keep Satchel&apos;s data.</FormAlert>
      ) : null}
    </div>
  );
}
