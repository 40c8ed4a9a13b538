import {
  ArrowRight,
  Briefcase,
  CalendarDays,
  CloudOff,
  CreditCard,
  FileLock2,
  GitPullRequestArrow,
  Layers,
  MessagesSquare,
  Smartphone,
  SquareKanban,
  UserRound,
  Users,
} from 'lucide-react';
import { LinkButton } from '../../ui/link-button.tsx';
import { TextLink } from '../../ui/text-link.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { AppIllustration } from './app-illustration.tsx';
import { CallToAction, SectionHeading } from './marketing-blocks.tsx';
import { sitePageTitle } from './site-pages.ts';
import { useTakeOverPrerenderedPage } from './use-prerendered-takeover.ts';

const audiences = [
  {
    title: 'Freelancers',
    body: 'Designers, developers, writers and consultants who run every client themselves.',
    Icon: UserRound,
  },
  {
    title: 'Small agencies',
    body: 'Studios of a few people who share clients, projects and tasks.',
    Icon: Briefcase,
  },
  {
    title: 'Their clients',
    body: 'Who follow the work in a portal, without an account or an app to install.',
    Icon: Users,
  },
] as const;

const promises = [
  {
    title: 'Works offline while you travel',
    body: 'Everything you have opened is kept on your device. Edit clients, tasks and notes on a train or a plane; your changes sync by themselves when you are back online.',
    Icon: CloudOff,
  },
  {
    title: 'A portal your clients open anywhere',
    body: 'Share a project with a link and a password. Clients follow progress, approve milestones, download files and ask for changes from any phone.',
    Icon: Smartphone,
  },
  {
    title: 'Everything about a client in one place',
    body: 'Projects, milestones, tasks, files, notes, chat, change requests and payments sit with the client they belong to, not in a dozen email threads.',
    Icon: Layers,
  },
] as const;

const steps = [
  {
    title: 'Add the client',
    body: 'Their contacts, notes and every project you do for them.',
  },
  {
    title: 'Plan the work',
    body: 'Milestones for what the client signs off, tasks on a board for what your team does.',
  },
  {
    title: 'Share the portal',
    body: 'The client approves milestones, downloads files and asks for changes with the cost shown.',
  },
  {
    title: 'Get paid',
    body: 'Invoices from milestones and approved changes, paid by card through Stripe in the portal.',
  },
] as const;

const moreFeatures = [
  { title: 'Tasks and kanban', Icon: SquareKanban },
  { title: 'Files with expiring links', Icon: FileLock2 },
  { title: 'Change requests', Icon: GitPullRequestArrow },
  { title: 'Calendar', Icon: CalendarDays },
  { title: 'Project chat', Icon: MessagesSquare },
  { title: 'Invoices and card payments', Icon: CreditCard },
] as const;

/** The public home page: what Satchel is, for whom, its three promises and the way in. */
export function HomeScreen() {
  usePageTitle(sitePageTitle('/'));
  useTakeOverPrerenderedPage();
  return (
    <>
      <section className="relative overflow-hidden">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 -top-40 mx-auto h-[28rem] max-w-5xl rounded-full bg-brand-soft opacity-70 blur-3xl"
        />
        <div className="relative mx-auto grid max-w-6xl items-center gap-12 px-4 pt-12 pb-20 sm:px-6 sm:pt-20 lg:grid-cols-[1fr_1.05fr] lg:pb-28">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full border border-border bg-surface px-3 py-1 text-sm font-medium text-fg-muted">
              <span className="size-2 rounded-full bg-success" aria-hidden="true" />
              Offline-first, installable, free to start
            </p>
            <h1 className="mt-6 text-4xl leading-[1.1] font-extrabold tracking-tight text-balance text-fg sm:text-5xl xl:text-[3.25rem]">
              Run your freelance business from one workspace, even offline.
            </h1>
            <p className="mt-6 max-w-xl text-lg text-pretty text-fg-muted sm:text-xl">
              Satchel keeps your clients, projects, milestones, tasks, files, chat and payments
              together, keeps working without a signal, and gives every client a portal of their
              own.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <LinkButton href="/signup" size="large">
                Get started free
              </LinkButton>
              <LinkButton href="/client-portal-demo" variant="secondary" size="large">
                See the client portal
              </LinkButton>
            </div>
            <p className="mt-4 text-sm text-fg-muted">
              Free for two active projects. No card needed.
            </p>
          </div>
          <AppIllustration />
        </div>
      </section>

      <section aria-labelledby="audience-heading" className="border-t border-border bg-surface">
        <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
          <h2 id="audience-heading" className="text-sm font-semibold text-brand">
            Made for
          </h2>
          <ul className="mt-6 grid gap-6 sm:grid-cols-3">
            {audiences.map(({ title, body, Icon }) => (
              <li key={title} className="flex gap-4">
                <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-brand-soft text-brand">
                  <Icon aria-hidden="true" size={20} />
                </span>
                <div>
                  <h3 className="font-semibold text-fg">{title}</h3>
                  <p className="mt-1 text-fg-muted">{body}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="promises-heading" className="border-t border-border">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-24">
          <SectionHeading
            id="promises-heading"
            title="Three promises"
            lead="What Satchel is built around, and what you can hold it to."
          />
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {promises.map(({ title, body, Icon }, index) => (
              <li
                key={title}
                className="flex flex-col rounded-2xl border border-border bg-surface p-6 shadow-sm"
              >
                <div className="flex items-center justify-between">
                  <span className="grid size-12 place-items-center rounded-xl bg-brand-soft text-brand">
                    <Icon aria-hidden="true" size={24} />
                  </span>
                  <span aria-hidden="true" className="text-4xl font-extrabold text-border-strong">
                    {index + 1}
                  </span>
                </div>
                <h3 className="mt-5 text-lg font-semibold text-fg">{title}</h3>
                <p className="mt-2 text-fg-muted">{body}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="steps-heading" className="border-t border-border bg-surface">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-24">
          <SectionHeading
            id="steps-heading"
            title="From the first call to the last invoice"
            lead="One place for the whole life of a project, shared with the client where it helps."
          />
          <ol className="mt-10 grid gap-8 sm:grid-cols-2 lg:grid-cols-4">
            {steps.map((step, index) => (
              <li key={step.title} className="flex gap-4 sm:block">
                <span className="grid size-9 shrink-0 place-items-center rounded-full bg-brand text-sm font-bold text-on-brand">
                  {index + 1}
                </span>
                <div>
                  <h3 className="mt-1.5 font-semibold text-fg sm:mt-4">{step.title}</h3>
                  <p className="mt-1 text-fg-muted">{step.body}</p>
                </div>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section aria-labelledby="more-heading" className="border-t border-border">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
          <div className="flex flex-col justify-between gap-4 sm:flex-row sm:items-end">
            <SectionHeading id="more-heading" title="And the rest of the job" />
            <TextLink href="/features" className="inline-flex min-h-11 items-center gap-1">
              See every feature <ArrowRight aria-hidden="true" size={16} />
            </TextLink>
          </div>
          <ul className="mt-8 grid gap-3 sm:grid-cols-2 md:grid-cols-3">
            {moreFeatures.map(({ title, Icon }) => (
              <li
                key={title}
                className="flex items-center gap-3 rounded-xl border border-border bg-surface px-4 py-3 font-medium text-fg"
              >
                <Icon aria-hidden="true" size={20} className="shrink-0 text-brand" />
                {title}
              </li>
            ))}
          </ul>
        </div>
      </section>

      <CallToAction />
    </>
  );
}
