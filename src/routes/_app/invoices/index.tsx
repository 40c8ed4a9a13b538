import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { InvoicesScreen } from '../../../features/invoices/invoices-screen.tsx';
import { invoicesSearchSchema } from '../../../features/invoices/invoices-search.ts';

export const Route = createFileRoute('/_app/invoices/')({
  /** state (open or an invoice state; every invoice by default): see invoices-search.ts. */
  validateSearch: invoicesSearchSchema,
  component: InvoicesRoute,
});

function InvoicesRoute() {
  const search = Route.useSearch();
  const navigate = useNavigate();
  return (
    <InvoicesScreen
      search={search}
      onSearchChange={(next) => void navigate({ to: '/invoices', search: next, replace: true })}
    />
  );
}
