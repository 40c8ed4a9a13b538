/**
 * The workspace's business details its invoices carry, kept in the workspace's settings:
 * - "How clients pay you" (`settings.paymentInstructions`: bank details, a payment link): sent
 *   invoices' emails, the invoice page, the PDF and the portal (when card payments are not
 *   offered: Stripe not configured, or a plan without them, server/endpoints/portal-invoices.ts)
 *   show them;
 * - "Your business address" (`settings.businessAddress`): printed under the workspace's name on
 *   every invoice, on the page and in the PDF.
 * They are the workspace's, read and saved online (an owner or admin saves; the server says so
 * to others).
 */
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { getWorkspaceSettings, updateWorkspaceSettings } from '#contract/endpoints/workspace.ts';
import { MAX_BUSINESS_ADDRESS } from '#contract/entities/invoice-document.ts';
import { Building2, Landmark } from 'lucide-react';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { FieldError, Label, TextArea, TextField } from 'react-aria-components';
import { Button } from '../../ui/button.tsx';
import { inputClassName, labelClassName } from '../../ui/form-text-field.tsx';
import { readSubmitFailure } from '../marketing/form-errors.ts';

export const MAX_PAYMENT_INSTRUCTIONS = 2000;

interface PanelProps {
  callEndpoint: CallEndpoint | null;
  workspaceId: string;
  online: boolean;
}

export function PaymentInstructions(props: PanelProps) {
  return (
    <SettingTextPanel
      {...props}
      settingKey="paymentInstructions"
      id="payment-instructions"
      title="How clients pay you"
      icon={<Landmark aria-hidden="true" size={18} />}
      label="Payment instructions"
      addLabel="Add instructions"
      max={MAX_PAYMENT_INSTRUCTIONS}
      placeholder="e.g. Bank transfer to IBAN DE00 1234 5678, reference: the invoice number"
      offlineText="Payment instructions are read and changed online."
      failedText="Payment instructions could not be loaded just now."
      emptyText="None yet. Add bank details or a payment link: your invoice emails carry them, and the client portal shows them when card payments are not offered (they come with Pro and Agency)."
    />
  );
}

export function BusinessAddress(props: PanelProps) {
  return (
    <SettingTextPanel
      {...props}
      settingKey="businessAddress"
      id="business-address"
      title="Your business address"
      icon={<Building2 aria-hidden="true" size={18} />}
      label="Business address"
      addLabel="Add address"
      max={MAX_BUSINESS_ADDRESS}
      placeholder={'e.g. Studio North AS\n1 Harbour Street\n0150 Oslo, Norway\nVAT NO 123 456 789'}
      offlineText="Your business address is read and changed online."
      failedText="Your business address could not be loaded just now."
      emptyText="None yet. Your invoices and their PDFs print it under your workspace's name."
    />
  );
}

function SettingTextPanel({
  callEndpoint,
  workspaceId,
  online,
  settingKey,
  id,
  title,
  icon,
  label,
  addLabel,
  max,
  placeholder,
  offlineText,
  failedText,
  emptyText,
}: PanelProps & {
  settingKey: string;
  id: string;
  title: string;
  icon: ReactNode;
  label: string;
  addLabel: string;
  max: number;
  placeholder: string;
  offlineText: string;
  failedText: string;
  emptyText: string;
}) {
  const [saved, setSaved] = useState<string | null | undefined>(undefined);
  const [text, setText] = useState('');
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);

  useEffect(() => {
    if (!callEndpoint || !online) return;
    let live = true;
    callEndpoint(getWorkspaceSettings, { query: { workspaceId } }).then(
      ({ workspace }) => {
        const value = workspace.settings[settingKey];
        if (!live) return;
        setSaved(typeof value === 'string' && value.trim() !== '' ? value : null);
        setLoadFailed(false);
      },
      () => {
        if (live) setLoadFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [callEndpoint, workspaceId, online, settingKey]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!callEndpoint) return;
    if (text.length > max) {
      setError(`At most ${max.toLocaleString('en-US')} characters`);
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await callEndpoint(updateWorkspaceSettings, {
        query: { workspaceId },
        body: { settings: { [settingKey]: text.trim() } },
      });
      setSaved(text.trim() === '' ? null : text.trim());
      setEditing(false);
    } catch (failure) {
      setError(readSubmitFailure(failure).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <section
      aria-labelledby={id}
      className="flex flex-col gap-3 rounded-2xl border border-border bg-surface p-4 sm:p-5"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="flex items-center gap-2 font-semibold text-fg">
          {icon}
          {title}
        </h2>
        {!editing ? (
          <Button
            variant="secondary"
            isDisabled={!online || saved === undefined}
            onPress={() => {
              setText(saved ?? '');
              setEditing(true);
            }}
          >
            {saved ? 'Edit' : addLabel}
          </Button>
        ) : null}
      </div>
      {editing ? (
        <form onSubmit={(event) => void save(event)} noValidate className="flex flex-col gap-3">
          <TextField
            value={text}
            onChange={setText}
            isInvalid={error !== null}
            validationBehavior="aria"
            className="flex flex-col gap-1.5"
            autoFocus
          >
            <Label className={labelClassName}>{label}</Label>
            <TextArea rows={4} placeholder={placeholder} className={`${inputClassName} py-2`} />
            <FieldError className="text-sm font-medium text-danger">{error}</FieldError>
          </TextField>
          <div className="flex gap-3">
            <Button type="submit" isPending={saving}>
              Save
            </Button>
            <Button variant="secondary" onPress={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <p className="text-sm whitespace-pre-line text-fg-muted">
          {!online
            ? offlineText
            : loadFailed
              ? failedText
              : saved === undefined
                ? 'Loading…'
                : (saved ?? emptyText)}
        </p>
      )}
    </section>
  );
}
