import {
  Bell,
  Check,
  CloudOff,
  FolderKanban,
  GitPullRequestArrow,
  LayoutDashboard,
  Settings,
  Users,
} from 'lucide-react';
import { Logo } from '../../ui/logo.tsx';

const nav = [
  { label: 'Dashboard', Icon: LayoutDashboard, isCurrent: false },
  { label: 'Projects', Icon: FolderKanban, isCurrent: true },
  { label: 'Clients', Icon: Users, isCurrent: false },
  { label: 'Change requests', Icon: GitPullRequestArrow, isCurrent: false },
  { label: 'Notifications', Icon: Bell, isCurrent: false },
  { label: 'Settings', Icon: Settings, isCurrent: false },
] as const;

const milestones = [
  { title: 'Discovery and moodboard', state: 'Approved by Maya', tone: 'done' },
  { title: 'Homepage and menu pages', state: 'Waiting for sign-off', tone: 'review' },
  { title: 'Online ordering', state: 'Planned', tone: 'planned' },
] as const;

const columns = [
  { name: 'To do', cards: ['Menu photos', 'Opening hours'] },
  { name: 'Doing', cards: ['Order form'] },
  { name: 'Done', cards: ['Colour palette', 'Logo files'] },
] as const;

const toneClass = {
  done: 'bg-success/10 text-success',
  review: 'bg-brand-soft text-brand',
  planned: 'bg-surface-muted text-fg-muted',
} as const;

/**
 * A faithful drawing of the app, in HTML so it is sharp, themed and weighs nothing: the project
 * workspace with its milestones and kanban, working offline, and the client portal on a phone.
 * It is one image to assistive technology, described by its label.
 */
export function AppIllustration() {
  return (
    <div
      role="img"
      aria-label="The Satchel app: a project for Maya's Bakery with its milestones and task board, working offline with changes saved on the device, and Maya approving a milestone in the client portal on her phone."
      className="relative mx-auto w-full max-w-xl select-none sm:pr-20 sm:pb-8 lg:max-w-none"
    >
      <div className="overflow-hidden rounded-2xl border border-border bg-surface shadow-2xl shadow-brand/10">
        <div className="flex items-center gap-1.5 border-b border-border bg-surface-muted px-4 py-2.5">
          <span className="size-2.5 rounded-full bg-border-strong" />
          <span className="size-2.5 rounded-full bg-border-strong" />
          <span className="size-2.5 rounded-full bg-border-strong" />
          <span className="ml-3 inline-flex items-center gap-1.5 rounded-full bg-canvas px-2.5 py-0.5 text-[11px] font-medium text-fg-muted">
            <CloudOff aria-hidden="true" size={12} /> Offline · 3 changes saved on this device
          </span>
        </div>
        <div className="flex">
          <div className="hidden w-40 shrink-0 border-r border-border bg-canvas p-3 sm:block">
            <div className="flex items-center gap-1.5 px-1 pb-3 text-sm font-bold text-fg">
              <Logo size="small" label={null} /> Satchel
            </div>
            <ul className="space-y-0.5">
              {nav.map(({ label, Icon, isCurrent }) => (
                <li
                  key={label}
                  className={`flex items-center gap-2 rounded-md px-2 py-1.5 text-[11px] font-medium ${isCurrent ? 'bg-brand-soft text-brand' : 'text-fg-muted'}`}
                >
                  <Icon aria-hidden="true" size={13} /> {label}
                </li>
              ))}
            </ul>
          </div>
          <div className="min-w-0 flex-1 p-4 sm:p-5">
            <p className="text-[11px] font-semibold tracking-wide text-fg-muted uppercase">
              Maya&rsquo;s Bakery
            </p>
            <div className="flex items-baseline justify-between gap-2">
              <p className="truncate text-base font-bold text-fg">Website redesign</p>
              <p className="shrink-0 text-[11px] font-medium text-fg-muted">Due 12 Dec</p>
            </div>
            <div className="mt-2 h-1.5 overflow-hidden rounded-full bg-surface-muted">
              <div className="h-full w-3/5 rounded-full bg-brand" />
            </div>
            <ul className="mt-4 space-y-1.5">
              {milestones.map((milestone) => (
                <li
                  key={milestone.title}
                  className="flex items-center justify-between gap-2 rounded-lg border border-border bg-canvas px-2.5 py-2"
                >
                  <span className="truncate text-xs font-medium text-fg">{milestone.title}</span>
                  <span
                    className={`shrink-0 rounded-full px-2 py-0.5 text-[10px] font-semibold ${toneClass[milestone.tone]}`}
                  >
                    {milestone.state}
                  </span>
                </li>
              ))}
            </ul>
            <div className="mt-4 grid grid-cols-3 gap-2">
              {columns.map((column) => (
                <div key={column.name} className="rounded-lg bg-surface-muted p-1.5">
                  <p className="px-1 pb-1 text-[10px] font-semibold text-fg-muted">{column.name}</p>
                  <div className="space-y-1">
                    {column.cards.map((card) => (
                      <p
                        key={card}
                        className="truncate rounded-md border border-border bg-surface px-1.5 py-1 text-[10px] text-fg"
                      >
                        {card}
                      </p>
                    ))}
                  </div>
                </div>
              ))}
            </div>
          </div>
        </div>
      </div>
      <div className="absolute right-0 -bottom-4 hidden w-44 rounded-[1.4rem] border-4 border-fg/85 bg-surface p-3 shadow-xl sm:block">
        <p className="text-[10px] font-semibold text-fg-muted">Client portal</p>
        <p className="mt-0.5 text-xs font-bold text-fg">Homepage and menu pages</p>
        <p className="mt-1 text-[10px] text-fg-muted">Ready for your review</p>
        <p className="mt-2 flex items-center justify-center gap-1 rounded-md bg-brand py-1.5 text-[11px] font-semibold text-on-brand">
          <Check aria-hidden="true" size={12} strokeWidth={3} /> Approve
        </p>
        <p className="mt-1.5 text-center text-[10px] text-fg-muted">Ask for changes</p>
      </div>
    </div>
  );
}
