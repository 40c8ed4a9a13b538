import { createFileRoute } from '@tanstack/react-router';
import { InvoiceScreen } from '../../../features/invoices/invoice-screen.tsx';
import { parseIdParams } from '../../-route-schemas.ts';

export const Route = createFileRoute('/_app/invoices/$invoiceId')({
  params: { parse: parseIdParams(['invoiceId']) },
  component: InvoiceRoute,
});

function InvoiceRoute() {
  const { invoiceId } = Route.useParams();
  return <InvoiceScreen invoiceId={invoiceId} />;
}
