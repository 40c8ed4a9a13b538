import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { ContactScreen } from '../../features/marketing/contact-screen.tsx';
import { optionalSearchString } from '../-route-schemas.ts';

export const Route = createFileRoute('/_public/contact')({
  validateSearch: v.object({
    /** Prefills the subject, e.g. "Payment failed (reference cs_…)" from a billing result page. */
    subject: optionalSearchString,
  }),
  component: ContactRoute,
});

function ContactRoute() {
  const { api } = Route.useRouteContext();
  const { subject } = Route.useSearch();
  return <ContactScreen callEndpoint={api.callEndpoint} initialSubject={subject} />;
}
