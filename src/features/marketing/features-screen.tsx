import {
  BadgeCheck,
  Bell,
  CalendarDays,
  CloudOff,
  CreditCard,
  FileLock2,
  FolderKanban,
  GitPullRequestArrow,
  Globe,
  MessagesSquare,
  NotebookPen,
  SquareKanban,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { CallToAction, PageHeader, SectionHeading } from './marketing-blocks.tsx';
import { sitePageTitle } from './site-pages.ts';
import { useTakeOverPrerenderedPage } from './use-prerendered-takeover.ts';

interface Feature {
  id: string;
  title: string;
  body: string;
  details: readonly string[];
  Icon: LucideIcon;
}

interface FeatureGroup {
  id: string;
  title: string;
  lead: string;
  features: readonly Feature[];
}

const groups: readonly FeatureGroup[] = [
  {
    id: 'organise',
    title: 'Organise the work',
    lead: 'Clients, the projects you do for them, and the steps in between.',
    features: [
      {
        id: 'clients',
        title: 'Clients',
        body: 'One record per client with their contacts, notes and every project you have done for them.',
        details: ['Contacts and details', 'All projects and payments of a client'],
        Icon: Users,
      },
      {
        id: 'projects',
        title: 'Projects',
        body: 'Each project belongs to a client, with its dates, status, the people working on it and a full activity history.',
        details: ['Activity log of every change', 'Members per project'],
        Icon: FolderKanban,
      },
      {
        id: 'milestones',
        title: 'Milestones with client sign-off',
        body: 'Split a project into milestones. When one is ready, the client approves it in the portal or sends it back with a note, and Satchel records who decided and when.',
        details: ['Approve or send back with feedback', 'A dated record of each decision'],
        Icon: BadgeCheck,
      },
      {
        id: 'tasks',
        title: 'Tasks and kanban',
        body: 'Tasks with assignees and due dates, as a list or on a kanban board that you can also drive with the keyboard.',
        details: ['Board, list and due dates', 'Drag, or move with the keyboard'],
        Icon: SquareKanban,
      },
    ],
  },
  {
    id: 'share',
    title: 'Work with your clients',
    lead: 'Your clients see what you choose to share, on any device, without an account.',
    features: [
      {
        id: 'client-portal',
        title: 'Client portal',
        body: 'A password-protected page per project that works on any phone: progress, milestones, shared files and change requests. A session ends after 30 minutes without activity.',
        details: ['No account for your client', 'Only the project you shared'],
        Icon: Globe,
      },
      {
        id: 'change-requests',
        title: 'Change requests',
        body: 'Clients ask for changes from the portal. You add the extra cost and time, they accept or decline, and the decision stays with the project.',
        details: ['Cost and schedule impact', 'Accepted or declined, on record'],
        Icon: GitPullRequestArrow,
      },
      {
        id: 'files',
        title: 'Files with expiring links',
        body: 'Keep files with the project and share downloads through signed links that stop working after the time you set. Uploads resume after a dropped connection.',
        details: ['Links that expire', 'Uploads made offline go out later'],
        Icon: FileLock2,
      },
      {
        id: 'chat',
        title: 'Chat',
        body: 'A conversation per project with your team and your client, delivered in real time. What you write offline is sent when you reconnect.',
        details: ['Real-time delivery', 'Offline messages queued, never lost'],
        Icon: MessagesSquare,
      },
    ],
  },
  {
    id: 'run',
    title: 'Run the business',
    lead: 'Dates, money and the things that need you today.',
    features: [
      {
        id: 'payments',
        title: 'Invoices and card payments',
        body: 'Bill milestones and approved changes on invoices, sent by email and shown in the portal, where your client pays by card through Stripe. A payment lands on the invoice at once.',
        details: ['Card payments through Stripe', 'Invoices from milestones and changes'],
        Icon: CreditCard,
      },
      {
        id: 'calendar',
        title: 'Calendar',
        body: 'Milestone and task due dates, meetings and payment dates on one calendar, per project or across all of them.',
        details: ['Due dates from your projects', 'Meetings and payment dates'],
        Icon: CalendarDays,
      },
      {
        id: 'notes',
        title: 'Notes',
        body: 'Notes on a client or a project: private to your team, or shared with the client to read in the portal.',
        details: [
          'Internal or shared with the client',
          'With the client or project they are about',
        ],
        Icon: NotebookPen,
      },
      {
        id: 'notifications',
        title: 'Notifications',
        body: 'Approvals, new messages, change requests and payments appear as they happen, with an unread count so nothing slips.',
        details: ['Real-time, in the app', 'Mark read, or clear them all'],
        Icon: Bell,
      },
    ],
  },
  {
    id: 'anywhere',
    title: 'Anywhere, with or without a signal',
    lead: 'Satchel is built to work first on your device and sync second.',
    features: [
      {
        id: 'offline',
        title: 'Offline and install',
        body: 'Install Satchel from the browser on a computer or a phone. What you have opened keeps working without a connection; each change is saved on the device first and synced when you are back, with a clear count of what is waiting.',
        details: [
          'Installs from the browser, no app store',
          'Saved, waiting and synced changes always shown',
        ],
        Icon: CloudOff,
      },
    ],
  },
];

/** Every area of the product, grouped by the job it does. */
export function FeaturesScreen() {
  usePageTitle(sitePageTitle('/features'));
  useTakeOverPrerenderedPage();
  return (
    <>
      <PageHeader
        eyebrow="What Satchel does"
        title="Features"
        lead="Everything a freelancer or a small agency needs to run client work, in one workspace that keeps working offline."
      >
        <nav aria-label="Feature groups" className="mt-8">
          <ul className="flex flex-wrap gap-2">
            {groups.map((group) => (
              <li key={group.id}>
                <a
                  href={`#${group.id}`}
                  className="inline-flex min-h-11 items-center rounded-full border border-border bg-surface px-4 text-sm font-medium text-fg hover:border-border-strong hover:bg-surface-muted sm:min-h-10"
                >
                  {group.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </PageHeader>
      {groups.map((group, index) => (
        <section
          key={group.id}
          aria-labelledby={group.id}
          className={
            index % 2 === 1 ? 'border-b border-border bg-surface' : 'border-b border-border'
          }
        >
          <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-20">
            <SectionHeading id={group.id} title={group.title} lead={group.lead} />
            <ul className={`mt-10 grid gap-6 ${group.features.length > 1 ? 'md:grid-cols-2' : ''}`}>
              {group.features.map((feature) => (
                <FeatureCard key={feature.id} feature={feature} />
              ))}
            </ul>
          </div>
        </section>
      ))}
      <CallToAction />
    </>
  );
}

function FeatureCard({ feature }: { feature: Feature }) {
  const { Icon } = feature;
  return (
    <li
      id={feature.id}
      className="flex scroll-mt-24 gap-4 rounded-2xl border border-border bg-canvas p-6 sm:gap-5"
    >
      <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-brand-soft text-brand">
        <Icon aria-hidden="true" size={24} />
      </span>
      <div>
        <h3 className="text-lg font-semibold text-fg">{feature.title}</h3>
        <p className="mt-2 text-fg-muted">{feature.body}</p>
        <ul className="mt-3 flex flex-wrap gap-2">
          {feature.details.map((detail) => (
            <li
              key={detail}
              className="rounded-full bg-surface-muted px-3 py-1 text-sm font-medium text-fg-muted"
            >
              {detail}
            </li>
          ))}
        </ul>
      </div>
    </li>
  );
}
