/**
 * Settings > Profile > Notifications: "Send test notification", for checking that delivery works
 * on this device (the bell, the toast, the list). The notification itself arrives over the hub.
 */
import { BellRing } from 'lucide-react';
import { useState } from 'react';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { sendTestNotification } from '#contract/endpoints/notifications.ts';
import { Button } from '../../ui/button.tsx';
import { FormAlert } from '../auth/form-alert.tsx';
import { apiErrorMessage } from './api-error-message.ts';
import { SettingsSection } from './settings-section.tsx';

export function TestNotificationSettings({ callEndpoint }: { callEndpoint: CallEndpoint }) {
  const [state, setState] = useState<
    { status: 'idle' | 'sending' | 'sent' } | { status: 'failed'; message: string }
  >({ status: 'idle' });

  async function send() {
    setState({ status: 'sending' });
    try {
      await callEndpoint(sendTestNotification, { query: {} });
      setState({ status: 'sent' });
    } catch (error) {
      setState({ status: 'failed', message: apiErrorMessage(error) });
    }
  }

  return (
    <SettingsSection
      title="Notifications"
      description="Check that notifications reach this device: a test one should appear in the bell within a second."
      icon={<BellRing aria-hidden="true" size={20} />}
    >
      <div className="flex flex-col items-start gap-3">
        <Button
          variant="secondary"
          isPending={state.status === 'sending'}
          onPress={() => void send()}
        >
          Send test notification
        </Button>
        <p role="status" className="text-sm text-fg-muted">
          {state.status === 'sent' ? 'Sent. Look for it in the bell at the top.' : ''}
        </p>
        {state.status === 'failed' ? (
          <FormAlert>The test notification could not be sent. {state.message}</FormAlert>
        ) : null}
      </div>
    </SettingsSection>
  );
}
