import { Check, CircleCheck, Clock, FileText, Lock, Undo2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../ui/button.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { CallToAction, PageHeader } from './marketing-blocks.tsx';
import { sitePageTitle } from './site-pages.ts';
import { useTakeOverPrerenderedPage } from './use-prerendered-takeover.ts';

type Decision = 'pending' | 'approved' | 'changes';
type Answer = 'pending' | 'accepted' | 'declined';

const files = [
  { name: 'Homepage design v3.pdf', size: '4.2 MB', expires: 'Link expires in 7 days' },
  { name: 'Menu photos.zip', size: '38 MB', expires: 'Link expires in 2 days' },
  { name: 'Brand colours.png', size: '310 KB', expires: 'Link expires in 7 days' },
] as const;

const controls = [
  'Each shared project has its own link and password.',
  'Your client sees this project only: never your internal notes or other clients.',
  'A session ends after 30 minutes without activity.',
  'Every approval and answer is recorded with its date.',
] as const;

/**
 * A sample project as a client sees it in the portal, with made-up data. The buttons work on this
 * page only, so a visitor can try them; nothing is sent anywhere.
 */
export function ClientPortalDemoScreen() {
  usePageTitle(sitePageTitle('/client-portal-demo'));
  useTakeOverPrerenderedPage();
  const [decision, setDecision] = useState<Decision>('pending');
  const [answer, setAnswer] = useState<Answer>('pending');
  return (
    <>
      <PageHeader
        eyebrow="What your clients see"
        title="Client portal demo"
        lead="A sample project, as your client sees it when you share it. The data is made up and the buttons only change this page: try them."
      />
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-[1fr_18rem]">
        <section
          aria-labelledby="demo-project"
          className="overflow-hidden rounded-3xl border border-border bg-surface shadow-xl shadow-brand/5"
        >
          <div className="flex flex-wrap items-center justify-between gap-3 border-b border-border bg-surface-muted px-5 py-3 text-sm text-fg-muted sm:px-8">
            <span>
              Shared with you by <strong className="text-fg">Studio North</strong>
            </span>
            <span className="inline-flex items-center gap-1.5">
              <Lock aria-hidden="true" size={14} /> Sample portal
            </span>
          </div>
          <div className="p-5 sm:p-8">
            <p className="text-sm font-semibold text-fg-muted">Maya&rsquo;s Bakery</p>
            <h2 id="demo-project" className="mt-1 text-2xl font-bold tracking-tight text-fg">
              Website redesign
            </h2>
            <div className="mt-4 flex items-center gap-3">
              <div
                role="progressbar"
                aria-label="Project progress"
                aria-valuenow={decision === 'approved' ? 70 : 60}
                aria-valuemin={0}
                aria-valuemax={100}
                className="h-2 flex-1 overflow-hidden rounded-full bg-surface-muted"
              >
                <div
                  className={`h-full rounded-full bg-brand transition-[width] duration-500 ${decision === 'approved' ? 'w-[70%]' : 'w-[60%]'}`}
                />
              </div>
              <span className="text-sm font-semibold text-fg">
                {decision === 'approved' ? '70%' : '60%'}
              </span>
            </div>

            <h3 className="mt-8 font-semibold text-fg">Milestones</h3>
            <ol className="mt-3 space-y-3">
              <li className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-border px-4 py-3">
                <span className="font-medium text-fg">1. Discovery and moodboard</span>
                <span className="inline-flex items-center gap-1.5 text-sm font-medium text-success">
                  <CircleCheck aria-hidden="true" size={16} /> Approved on 3 November
                </span>
              </li>
              <li className="rounded-xl border border-brand/40 bg-brand-soft/40 px-4 py-3">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-medium text-fg">2. Homepage and menu pages</span>
                  <span role="status" className="text-sm font-medium text-fg-muted">
                    {decision === 'pending'
                      ? 'Ready for your review'
                      : decision === 'approved'
                        ? 'Approved just now'
                        : 'Sent back with your note'}
                  </span>
                </div>
                {decision === 'pending' ? (
                  <div className="mt-3 flex flex-col gap-2 sm:flex-row">
                    <Button onPress={() => setDecision('approved')}>
                      <Check aria-hidden="true" size={16} /> Approve milestone
                    </Button>
                    <Button variant="secondary" onPress={() => setDecision('changes')}>
                      Ask for changes
                    </Button>
                  </div>
                ) : (
                  <Button
                    variant="ghost"
                    className="mt-2 -ml-3"
                    onPress={() => setDecision('pending')}
                  >
                    <Undo2 aria-hidden="true" size={16} /> Undo (demo)
                  </Button>
                )}
              </li>
              <li className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-border px-4 py-3">
                <span className="font-medium text-fg">3. Online ordering</span>
                <span className="text-sm text-fg-muted">Planned for January</span>
              </li>
            </ol>

            <h3 className="mt-8 font-semibold text-fg">Change requests</h3>
            <div className="mt-3 rounded-xl border border-border px-4 py-3">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <span className="font-medium text-fg">Add a photo gallery page</span>
                <span className="text-sm text-fg-muted">+ $450 · + 3 days</span>
              </div>
              <p className="mt-1 text-sm text-fg-muted">
                Requested by you on 10 November, priced by Studio North.
              </p>
              {answer === 'pending' ? (
                <div className="mt-3 flex flex-col gap-2 sm:flex-row">
                  <Button variant="secondary" onPress={() => setAnswer('accepted')}>
                    Accept the change
                  </Button>
                  <Button variant="ghost" onPress={() => setAnswer('declined')}>
                    Decline
                  </Button>
                </div>
              ) : (
                <p className="mt-3 flex flex-wrap items-center gap-2 text-sm font-medium text-fg">
                  {answer === 'accepted'
                    ? 'Accepted: the new cost and date apply.'
                    : 'Declined: the plan stays as it was.'}
                  <Button variant="ghost" onPress={() => setAnswer('pending')}>
                    <Undo2 aria-hidden="true" size={16} /> Undo (demo)
                  </Button>
                </p>
              )}
            </div>

            <h3 className="mt-8 font-semibold text-fg">Files</h3>
            <ul className="mt-3 divide-y divide-border rounded-xl border border-border">
              {files.map((file) => (
                <li key={file.name} className="flex items-center gap-3 px-4 py-3">
                  <FileText aria-hidden="true" size={20} className="shrink-0 text-brand" />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium text-fg">{file.name}</span>
                    <span className="flex flex-wrap items-center gap-x-3 gap-y-0.5 text-sm text-fg-muted">
                      <span>{file.size}</span>
                      <span className="inline-flex items-center gap-1">
                        <Clock aria-hidden="true" size={13} /> {file.expires}
                      </span>
                    </span>
                  </span>
                </li>
              ))}
            </ul>
          </div>
        </section>
        <aside aria-labelledby="controls-heading" className="flex flex-col gap-4">
          <div className="rounded-2xl border border-border bg-surface p-5">
            <h2 id="controls-heading" className="font-semibold text-fg">
              What you control
            </h2>
            <ul className="mt-3 space-y-3 text-sm text-fg-muted">
              {controls.map((line) => (
                <li key={line} className="flex gap-2">
                  <Check aria-hidden="true" size={16} className="mt-0.5 shrink-0 text-brand" />
                  {line}
                </li>
              ))}
            </ul>
          </div>
        </aside>
      </div>
      <CallToAction
        title="Give your clients a portal of their own"
        body="Every plan includes the client portal. Your clients never need an account."
      />
    </>
  );
}
