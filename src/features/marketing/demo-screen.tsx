/**
 * /demo: a guided tour of a freelancer's week in Satchel, in four steps, each with what to try
 * once signed up (it takes a minute and is free). Honest about what it is: a walk-through with a
 * faithful picture of the app, not a shared sandbox anyone could fill with junk.
 */
import { CloudOff, FolderKanban, Globe, Users, type LucideIcon } from 'lucide-react';
import { TextLink } from '../../ui/text-link.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { AppIllustration } from './app-illustration.tsx';
import { CallToAction, PageHeader, SectionHeading } from './marketing-blocks.tsx';
import { sitePageTitle } from './site-pages.ts';
import { useTakeOverPrerenderedPage } from './use-prerendered-takeover.ts';

interface Step {
  id: string;
  title: string;
  body: string;
  tryIt: readonly string[];
  Icon: LucideIcon;
}

const steps: readonly Step[] = [
  {
    id: 'demo-clients',
    title: 'Monday: a new client',
    body: 'Add the client once, with their contacts and notes. Search finds them by name, company, email or tag as you type, even with thousands of clients.',
    tryIt: ['Press n on the Clients page to add one', 'Press / and type a few letters of a name'],
    Icon: Users,
  },
  {
    id: 'demo-projects',
    title: 'Tuesday: plan the project',
    body: 'Start a project for that client with dates, budget and billing type. The board shows every project by status; move a card and the whole team sees it.',
    tryIt: [
      'Create a project and pick or create its client in the same dialog',
      'Switch to the board and move a card to Active',
    ],
    Icon: FolderKanban,
  },
  {
    id: 'demo-offline',
    title: 'Wednesday: on the train, no signal',
    body: 'Keep working. Every change is saved on your device first and sent when you are back online, in order, exactly once. The header always says where things stand.',
    tryIt: [
      'Turn on airplane mode and edit a client: the header says "Offline — changes are kept on this device"',
      'Reload the page: your change is still there; reconnect and it reads "All changes saved"',
    ],
    Icon: CloudOff,
  },
  {
    id: 'demo-portal',
    title: 'Thursday: the client checks in',
    body: 'Your client opens their project in the portal on a phone, with a password and no account, and still sees the files they viewed before when their connection drops.',
    tryIt: ['Open the client portal demo below to see what your client sees'],
    Icon: Globe,
  },
];

export function DemoScreen() {
  useTakeOverPrerenderedPage();
  usePageTitle(sitePageTitle('/demo'));
  return (
    <>
      <PageHeader
        title="Demo"
        lead="A week of freelance work in Satchel, step by step, with what to try yourself. An account is free and takes a minute."
      />
      <section aria-labelledby="demo-app" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <SectionHeading
          id="demo-app"
          title="The workspace"
          lead="Dashboard, clients, projects and the sync state in the header, as they look in the app."
        />
        <div className="mt-8">
          <AppIllustration />
        </div>
      </section>
      <section aria-labelledby="demo-week" className="mx-auto max-w-6xl px-4 pb-4 sm:px-6">
        <SectionHeading id="demo-week" title="Your week, in four steps" />
        <ol className="mt-8 grid gap-6 md:grid-cols-2">
          {steps.map(({ id, title, body, tryIt, Icon }, index) => (
            <li
              key={id}
              aria-labelledby={id}
              className="rounded-2xl border border-border bg-surface p-6 shadow-xs"
            >
              <div className="flex items-center gap-3">
                <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-brand-soft text-brand">
                  <Icon aria-hidden="true" size={20} />
                </span>
                <h3 id={id} className="text-lg font-semibold text-fg">
                  <span className="sr-only">Step {index + 1}: </span>
                  {title}
                </h3>
              </div>
              <p className="mt-3 text-fg-muted">{body}</p>
              <p className="mt-4 text-sm font-semibold text-fg">Try it</p>
              <ul className="mt-1 list-disc pl-5 text-sm text-fg-muted">
                {tryIt.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
        <p className="mt-8 text-fg-muted">
          See the other side too:{' '}
          <TextLink href="/client-portal-demo">the client portal demo</TextLink>.
        </p>
      </section>
      <CallToAction
        title="Try it with your own clients"
        secondary={{ href: '/features', label: 'See every feature' }}
      />
    </>
  );
}
