/**
 * /demo: the entry to the demo, the real app on a sample workspace that lives only in this
 * browser (src/demo). Its prerendered copy is light (a heading, what the demo is, a spinner) and
 * the app starts at once on it (main.tsx); in the demo, this screen hands over to the dashboard.
 */
import { Navigate } from '@tanstack/react-router';
import { useAuth } from '../../auth/auth-provider.tsx';
import { isDemoUser } from '../../demo/demo-mode.ts';
import { Spinner } from '../../ui/spinner.tsx';
import { TextLink } from '../../ui/text-link.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { PageHeader } from './marketing-blocks.tsx';
import { sitePageTitle } from './site-pages.ts';
import { useTakeOverPrerenderedPage } from './use-prerendered-takeover.ts';

export function DemoScreen() {
  useTakeOverPrerenderedPage();
  usePageTitle(sitePageTitle('/demo'));
  const auth = useAuth();
  const inDemo = auth.status === 'authenticated' && isDemoUser(auth.user);
  return (
    <>
      {inDemo ? <Navigate to="/dashboard" replace /> : null}
      <PageHeader
        title="Demo"
        lead="Try the real app on a small studio’s workspace: clients, projects, tasks and invoices. Add and edit anything: your changes stay in this browser and nothing is sent to our server."
      />
      <section aria-label="Opening the demo" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <p role="status" className="flex items-center gap-3 text-fg-muted">
          <Spinner />
          Opening the demo workspace…
        </p>
        <noscript>
          <p className="mt-4 text-fg">The demo is the app itself: it needs JavaScript.</p>
        </noscript>
        <p className="mt-8 text-fg-muted">
          Rather start with your own work? <TextLink href="/signup">Create your account</TextLink>{' '}
          (free, it takes a minute), or see what clients see in{' '}
          <TextLink href="/client-portal-demo">the client portal demo</TextLink>.
        </p>
      </section>
    </>
  );
}
