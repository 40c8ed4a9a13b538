/**
 * The "Invoice" step of an approved or accepted change that costs something: a draft invoice for
 * the project's client with the change as its one line (its cost, its currency, linked to the
 * request), made on the device like any draft, so it works offline; a link to it then takes the
 * button's place (and its focus). A change already on an invoice that is not void links to it
 * instead, so it is not billed twice by accident.
 */
import { changeGoesAhead } from '#contract/entities/change-request.ts';
import { invoiceNumberText } from '#contract/entities/invoice.ts';
import { formatMoney } from '#contract/entities/invoice-totals.ts';
import { ReceiptText } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { LocalChangeRequest } from '../../data/change-request-queries.ts';
import { invoiceWrites, newInvoiceLine, useBilledSources } from '../../data/invoices.ts';
import { writeErrorFields } from '../../data/write-error-fields.ts';
import { Button } from '../../ui/button.tsx';
import { TextLink } from '../../ui/text-link.tsx';
import { useSync, useWriteContext } from '../workspace/sync-context.tsx';

export function changeIsBillable(request: LocalChangeRequest): boolean {
  return changeGoesAhead(request.status) && (request.costImpact ?? 0) > 0;
}

export function ChangeRequestBilling({ request }: { request: LocalChangeRequest }) {
  const { handle } = useSync();
  const ctx = useWriteContext();
  const billed = useBilledSources(handle.db, request.workspaceId);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cost = request.costImpact ?? 0;
  const onInvoice = billed?.changeRequests.get(request.id);
  // The button goes away once the draft exists; focus moves to the link that replaces it.
  const [made, setMade] = useState(false);
  const linkRef = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (made && onInvoice) linkRef.current?.focus();
  }, [made, onInvoice]);

  const createInvoice = async () => {
    setPending(true);
    setError(null);
    try {
      const project = await handle.db.projects.get(request.projectId);
      if (!project || project._deleted) {
        setError('This project is not on this device, so its client is unknown.');
        return;
      }
      await invoiceWrites.create(ctx, {
        workspaceId: request.workspaceId,
        clientId: project.clientId,
        projectId: project.id,
        title: `Change: ${request.title}`.slice(0, 200),
        currency: request.currency,
        lines: [
          newInvoiceLine({
            description: request.title,
            unitPrice: cost,
            changeRequestId: request.id,
          }),
        ],
      });
      setMade(true);
    } catch (caught) {
      const fields = writeErrorFields(caught);
      setError(Object.values(fields)[0] ?? 'The invoice could not be made. Try again in a moment.');
    } finally {
      setPending(false);
    }
  };

  return (
    <section
      aria-labelledby="change-request-billing"
      className="flex flex-col gap-3 rounded-xl border border-border p-4"
    >
      <h3 id="change-request-billing" className="font-semibold text-fg">
        Invoice
      </h3>
      {billed === undefined ? null : onInvoice ? (
        <p className="text-sm text-fg">
          Billed on{' '}
          <TextLink ref={linkRef} href={`/invoices/${onInvoice.id}`}>
            {onInvoice.number === null
              ? `the draft “${onInvoice.title}”`
              : invoiceNumberText(onInvoice.number)}
          </TextLink>
          .
        </p>
      ) : (
        <>
          <p className="text-sm text-fg-muted">
            This change adds {formatMoney(cost, request.currency)}. Bill it on a draft invoice for
            the project&apos;s client, which you can edit before sending.
          </p>
          <Button
            variant="secondary"
            onPress={() => void createInvoice()}
            isPending={pending}
            className="w-full sm:w-fit"
          >
            <ReceiptText aria-hidden="true" size={16} />
            Invoice this change
          </Button>
        </>
      )}
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </section>
  );
}
