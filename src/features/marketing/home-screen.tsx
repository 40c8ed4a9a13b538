import { Check, CloudOff, KeyRound, Radio, RefreshCw } from 'lucide-react';
import { LinkButton } from '../../ui/link-button.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';

const highlights = [
  {
    title: 'Works offline',
    body: 'Keep working on a train or a plane. Every change is saved on your device and syncs by itself when you are back online.',
    Icon: CloudOff,
  },
  {
    title: 'Client portal',
    body: 'Give each client a password-protected view of their project: milestones, files and progress, on any phone.',
    Icon: KeyRound,
  },
  {
    title: 'Real-time',
    body: 'Changes from your team and your clients appear in seconds, with notifications for what needs you.',
    Icon: Radio,
  },
] as const;

/** The public home page: what Satchel is, and the way in. */
export function HomeScreen() {
  usePageTitle();
  return (
    <>
      <section className="relative overflow-hidden">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 -top-40 mx-auto h-[28rem] max-w-5xl rounded-full bg-brand-soft opacity-70 blur-3xl"
        />
        <div className="relative mx-auto grid max-w-6xl items-center gap-12 px-4 pt-14 pb-16 sm:px-6 sm:pt-20 lg:grid-cols-[1.25fr_1fr] lg:pb-24">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full border border-border bg-surface px-3 py-1 text-sm font-medium text-fg-muted">
              <span className="size-2 rounded-full bg-success" aria-hidden="true" />
              Offline-first, installable, free to start
            </p>
            <h1 className="mt-6 text-4xl leading-[1.1] font-extrabold tracking-tight text-balance text-fg sm:text-5xl xl:text-[3.5rem]">
              Run your freelance business from one workspace, even offline.
            </h1>
            <p className="mt-6 max-w-xl text-lg text-pretty text-fg-muted sm:text-xl">
              Clients, projects, tasks, files, chat and payments in one place that keeps working
              without a signal and syncs the moment you are back. Your clients get a portal of their
              own.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <LinkButton href="/signup" size="large">
                Get started free
              </LinkButton>
              <LinkButton href="/features" variant="secondary" size="large">
                See features
              </LinkButton>
            </div>
          </div>
          <ProductPreview />
        </div>
      </section>

      <section aria-labelledby="highlights-heading" className="border-t border-border bg-surface">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
          <h2
            id="highlights-heading"
            className="text-2xl font-bold tracking-tight text-fg sm:text-3xl"
          >
            Built for work that does not wait for Wi-Fi
          </h2>
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {highlights.map(({ title, body, Icon }) => (
              <li key={title} className="rounded-2xl border border-border bg-canvas p-6">
                <span className="grid size-11 place-items-center rounded-xl bg-brand-soft text-brand">
                  <Icon aria-hidden="true" size={22} />
                </span>
                <h3 className="mt-4 text-lg font-semibold text-fg">{title}</h3>
                <p className="mt-2 text-fg-muted">{body}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>
    </>
  );
}

const previewTasks = [
  { title: 'Send homepage wireframes', done: true },
  { title: 'Review copy with Maya', done: true },
  { title: 'Prepare milestone 2 invoice', done: false },
] as const;

/** A decorative sketch of a project card; hidden from assistive technology. */
function ProductPreview() {
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-md select-none lg:max-w-none">
      <div className="rounded-2xl border border-border bg-surface p-5 shadow-xl shadow-brand/10 sm:pb-12">
        <div className="flex items-center justify-between gap-3">
          <div>
            <p className="text-xs font-semibold tracking-wide text-fg-muted uppercase">Project</p>
            <p className="mt-1 text-lg font-semibold text-fg">Bakery website redesign</p>
          </div>
          <span className="inline-flex items-center gap-1.5 rounded-full bg-surface-muted px-2.5 py-1 text-xs font-medium text-fg-muted">
            <CloudOff size={14} /> Offline
          </span>
        </div>
        <div className="mt-4 h-2 overflow-hidden rounded-full bg-surface-muted">
          <div className="h-full w-2/3 rounded-full bg-brand" />
        </div>
        <ul className="mt-5 space-y-2">
          {previewTasks.map((task) => (
            <li
              key={task.title}
              className="flex items-center gap-3 rounded-xl border border-border bg-canvas px-3 py-2.5 text-sm"
            >
              <span
                className={`grid size-5 shrink-0 place-items-center rounded-md border ${task.done ? 'border-brand bg-brand text-on-brand' : 'border-border-strong'}`}
              >
                {task.done ? <Check size={14} strokeWidth={3} /> : null}
              </span>
              <span className={task.done ? 'text-fg-muted line-through' : 'text-fg'}>
                {task.title}
              </span>
            </li>
          ))}
        </ul>
        <div className="mt-5 flex items-center gap-2 rounded-xl bg-brand-soft px-3 py-2.5 text-sm text-fg">
          <RefreshCw size={16} className="text-brand" />2 changes saved on this device, syncing when
          online
        </div>
      </div>
      <div className="absolute -bottom-7 right-6 hidden rounded-xl border border-border bg-surface px-4 py-3 shadow-lg sm:block">
        <p className="text-xs text-fg-muted">Client portal</p>
        <p className="text-sm font-semibold text-fg">Maya approved milestone 1</p>
      </div>
    </div>
  );
}
