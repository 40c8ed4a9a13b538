/**
 * A sent invoice's payments and refunds, and the form to record one (offline too: it goes out
 * through the outbox like every write). The amount is typed in the currency's units and checked
 * here against what is due (or, for a refund, what was paid) before anything is queued; the
 * server checks the same under the invoice's lock. Removing a record offers Undo.
 */
import {
  manualPaymentMethods,
  paymentMethodWords,
  type paymentKinds,
  type paymentMethods,
} from '#contract/entities/invoice.ts';
import { formatMoney, minorToInput, parseMoney } from '#contract/entities/invoice-totals.ts';
import { formatInvoiceDate } from '#contract/entities/invoice-document.ts';
import { Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import {
  invoicePaymentWrites,
  localToday,
  type InvoiceView,
  type LocalInvoicePayment,
} from '../../data/invoices.ts';
import { writeErrorFields, type WriteErrorFields } from '../../data/write-error-fields.ts';
import { cancelQueuedChange } from '../../sync/sync-client.ts';
import { Button } from '../../ui/button.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { showUndoNotice } from '../../ui/undo-notice.ts';
import { useToast } from '../../ui/use-toast.ts';
import { focusWhenReady } from '../../ui/focus-when-ready.ts';
import { InvoicePanel } from './invoice-panel.tsx';
import { useWriteContext } from '../workspace/sync-context.tsx';

type Method = (typeof paymentMethods)[number];
type PaymentKind = (typeof paymentKinds)[number];
const UNDO_WINDOW_MS = 8000;

export function InvoicePayments({
  view,
  locale,
}: {
  view: InvoiceView;
  /** The workspace's: dates read as on the invoice's header and its PDF. */
  locale: string;
}) {
  const ctx = useWriteContext();
  const toaster = useToast();
  const { invoice } = view;
  const money = (minor: number) => formatMoney(minor, invoice.currency);
  const day = (date: string) => formatInvoiceDate(date, locale);
  // A void invoice owes nothing: what reached it anyway (a card payment as it was voided) can
  // only go back, so refunds are all it takes (the server holds the same rule).
  const refundOnly = invoice.status === 'void';
  // Money beyond what was billed (a second card payment, or any on a void invoice): the webhook
  // records it as charged and it stays owed back until a refund is recorded.
  const owedBack = refundOnly ? view.paid : Math.max(0, view.paid - view.totals.total);
  // The type and amount follow the invoice until the user picks or types one, and again once a
  // record lands: after a refund the form offers the payment still due, not the refund's type
  // with a payment's amount.
  const [chosenKind, setKind] = useState<PaymentKind | null>(null);
  const [typedAmount, setAmount] = useState<string | null>(null);
  const kind: PaymentKind = chosenKind ?? (refundOnly || owedBack > 0 ? 'refund' : 'payment');
  const amount =
    typedAmount ??
    minorToInput(kind === 'refund' ? owedBack || view.paid : view.due, invoice.currency);
  const [paidOn, setPaidOn] = useState(localToday());
  const [method, setMethod] = useState<Method>('bank_transfer');
  const [reference, setReference] = useState('');
  const [errors, setErrors] = useState<WriteErrorFields>({});
  const [saving, setSaving] = useState(false);
  const limit = kind === 'refund' ? view.paid : view.due;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const minor = parseMoney(amount, invoice.currency);
    if (minor === null || minor <= 0) {
      setErrors({ amount: `Enter an amount like ${minorToInput(12_500, invoice.currency)}` });
      return;
    }
    if (minor > limit) {
      setErrors({
        amount:
          kind === 'refund'
            ? `A refund is at most what was paid: ${money(limit)}`
            : `That is more than the ${money(limit)} still due`,
      });
      return;
    }
    setSaving(true);
    try {
      const recorded = await invoicePaymentWrites.create(ctx, {
        workspaceId: invoice.workspaceId,
        invoiceId: invoice.id,
        kind,
        amount: minor,
        method,
        paidOn,
        reference: reference.trim() === '' ? null : reference,
      });
      setErrors({});
      setReference('');
      setKind(null);
      setAmount(null);
      toaster.show({
        tone: 'success',
        message: `${kind === 'refund' ? 'Refund' : 'Payment'} of ${money(minor)} recorded`,
      });
      // Onto what was recorded once it is listed: the last payment disables the focused button,
      // and focus would fall to the page's body.
      focusWhenReady(`#${CSS.escape(paymentId(recorded.id))}`);
    } catch (error) {
      setErrors(writeErrorFields(error));
    } finally {
      setSaving(false);
    }
  };

  const remove = async (payment: LocalInvoicePayment, index: number) => {
    try {
      const mutationId = await invoicePaymentWrites.delete(ctx, payment.id, {
        undoWindowMs: UNDO_WINDOW_MS,
      });
      const next = view.payments[index + 1] ?? view.payments[index - 1];
      focusWhenReady(next ? `#${CSS.escape(removeId(next.id))}` : '#record-payment-amount');
      showUndoNotice(toaster, {
        message: `${payment.kind === 'refund' ? 'Refund' : 'Payment'} of ${money(payment.amount)} removed`,
        durationMs: UNDO_WINDOW_MS,
        undo: () => void cancelQueuedChange(ctx.db, mutationId),
      });
    } catch (error) {
      toaster.show({
        tone: 'error',
        message: writeErrorFields(error).form ?? 'Could not remove it.',
      });
    }
  };

  return (
    <InvoicePanel id="invoice-payments" title="Payments">
      {owedBack > 0 ? (
        <p className="text-sm font-medium text-danger">
          {money(owedBack)} more than {refundOnly ? 'this void invoice owes' : 'was billed'} was
          paid: refund it to the client, then record the refund here.
        </p>
      ) : null}
      {view.payments.length === 0 ? (
        <p className="text-sm text-fg-muted">No payment recorded yet.</p>
      ) : (
        <ul aria-label="Payments and refunds" className="flex flex-col divide-y divide-border">
          {view.payments.map((payment, index) => (
            <li
              key={payment.id}
              id={paymentId(payment.id)}
              tabIndex={-1}
              className="flex items-center gap-3 py-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <span className="min-w-0 flex-1">
                <span className="block text-fg">
                  {payment.kind === 'refund' ? 'Refund' : 'Payment'} ·{' '}
                  {paymentMethodWords[payment.method]} · {day(payment.paidOn)}
                </span>
                {payment.reference ? (
                  <span className="block truncate text-fg-muted">{payment.reference}</span>
                ) : null}
              </span>
              <span className="tabular-nums text-fg">
                {payment.kind === 'refund' ? '−' : ''}
                {money(payment.amount)}
              </span>
              {payment.method === 'stripe' ? null : (
                <Button
                  id={removeId(payment.id)}
                  variant="ghost"
                  aria-label={`Remove the ${payment.kind} of ${money(payment.amount)} on ${day(payment.paidOn)}`}
                  onPress={() => void remove(payment, index)}
                >
                  <Trash2 aria-hidden="true" size={16} />
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-3">
        <h3 className="font-semibold text-fg">Record a {refundOnly ? 'refund' : 'payment'}</h3>
        <div className="grid gap-3 sm:grid-cols-2">
          {refundOnly ? null : (
            <SelectField
              label="Type"
              options={[
                { id: 'payment', label: 'Payment received' },
                { id: 'refund', label: 'Refund given' },
              ]}
              value={kind}
              onChange={setKind}
            />
          )}
          <FormTextField
            id="record-payment-amount"
            label={`Amount (${invoice.currency})`}
            inputMode="decimal"
            value={amount}
            onChange={setAmount}
            error={errors.amount}
            description={
              kind === 'refund'
                ? `Paid so far: ${money(view.paid)}`
                : `Still due: ${money(view.due)}`
            }
          />
          <FormTextField
            label="Date"
            type="date"
            value={paidOn}
            onChange={setPaidOn}
            error={errors.paidOn}
          />
          <SelectField
            label="Method"
            options={manualPaymentMethods.map((id) => ({ id, label: paymentMethodWords[id] }))}
            value={method}
            onChange={setMethod}
            error={errors.method}
          />
          <FormTextField
            className="sm:col-span-2"
            label="Reference"
            value={reference}
            onChange={setReference}
            error={errors.reference}
            description="Optional: a transfer reference or a note."
          />
        </div>
        {errors.form ? (
          <p role="alert" className="text-sm font-medium text-danger">
            {errors.form}
          </p>
        ) : null}
        <div>
          <Button type="submit" isPending={saving} isDisabled={limit <= 0}>
            Record {kind === 'refund' ? 'refund' : 'payment'}
          </Button>
        </div>
      </form>
    </InvoicePanel>
  );
}

const paymentId = (id: string) => `invoice-payment-${id}`;
const removeId = (id: string) => `invoice-payment-${id}-remove`;
