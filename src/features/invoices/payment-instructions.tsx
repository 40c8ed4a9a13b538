/**
 * "How clients pay you": the workspace's payment instructions (bank details, a payment link), kept
 * in the workspace's settings (`settings.paymentInstructions`). Sent invoices' emails carry them,
 * and the portal shows them beside an invoice when card payments are not offered. They are the
 * workspace's, read and saved online (an owner or admin saves; the server says so to others).
 */
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { getWorkspaceSettings, updateWorkspaceSettings } from '#contract/endpoints/workspace.ts';
import { Landmark } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { FieldError, Label, TextArea, TextField } from 'react-aria-components';
import { Button } from '../../ui/button.tsx';
import { inputClassName, labelClassName } from '../../ui/form-text-field.tsx';
import { readSubmitFailure } from '../marketing/form-errors.ts';

export const MAX_PAYMENT_INSTRUCTIONS = 2000;

export function PaymentInstructions({
  callEndpoint,
  workspaceId,
  online,
}: {
  callEndpoint: CallEndpoint | null;
  workspaceId: string;
  online: boolean;
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
        const value = workspace.settings.paymentInstructions;
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
  }, [callEndpoint, workspaceId, online]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!callEndpoint) return;
    if (text.length > MAX_PAYMENT_INSTRUCTIONS) {
      setError(`At most ${MAX_PAYMENT_INSTRUCTIONS.toLocaleString('en-US')} characters`);
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await callEndpoint(updateWorkspaceSettings, {
        query: { workspaceId },
        body: { settings: { paymentInstructions: text.trim() } },
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
      aria-labelledby="payment-instructions"
      className="flex flex-col gap-3 rounded-2xl border border-border bg-surface p-4 sm:p-5"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="payment-instructions" className="flex items-center gap-2 font-semibold text-fg">
          <Landmark aria-hidden="true" size={18} />
          How clients pay you
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
            {saved ? 'Edit' : 'Add instructions'}
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
            <Label className={labelClassName}>Payment instructions</Label>
            <TextArea
              rows={4}
              placeholder="e.g. Bank transfer to IBAN DE00 1234 5678, reference: the invoice number"
              className={`${inputClassName} py-2`}
            />
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
            ? 'Payment instructions are read and changed online.'
            : loadFailed
              ? 'Payment instructions could not be loaded just now.'
              : saved === undefined
                ? 'Loading…'
                : (saved ??
                  'None yet. Add bank details or a payment link: your invoice emails carry them, and the client portal shows them when card payments are not offered.')}
        </p>
      )}
    </section>
  );
}
