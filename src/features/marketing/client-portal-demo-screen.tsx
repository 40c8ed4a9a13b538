import { Check, Info, Lock, LogIn, RotateCcw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../ui/button.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { createPortalDemo, type PortalDemo } from '../portal/portal-demo-api.ts';
import { demoDay, demoDayKey } from '../portal/portal-demo-data.ts';
import { createMemoryFileCopies, createMemoryStorage } from '../portal/portal-demo-device.ts';
import type { PortalFileCopies } from '../portal/portal-file-copies.ts';
import { PortalProjectScreen } from '../portal/portal-project-screen.tsx';
import { writePortalSnapshot } from '../portal/portal-snapshot.ts';
import { CallToAction, PageHeader } from './marketing-blocks.tsx';
import { PRERENDERED_ID } from './prerendered-handover.ts';
import { sitePageTitle } from './site-pages.ts';
import { useTakeOverPrerenderedPage } from './use-prerendered-takeover.ts';

const controls = [
  'Each shared project has its own link and password.',
  'Your client sees this project only: never your internal notes or other clients.',
  'A session ends after 30 minutes without activity.',
  'Every approval and answer is recorded with its date.',
] as const;

const aboutDemo = [
  'It runs in this page only: nothing you do is sent anywhere or kept after you leave.',
  'Downloads are small sample files made in your browser; files you attach stay in this page.',
  'Your clients first enter the password you set; the demo skips that step.',
] as const;

/** The client's actions take this long, as over a network, so their "sending" states show. */
const ACTION_DELAY_MS = 350;

/** One run of the demo: its "server" and the "device" the portal keeps its copies on. */
interface DemoRun {
  key: number;
  day: string;
  demo: PortalDemo;
  storage: Storage;
  fileCopies: PortalFileCopies;
}

let runs = 0;

function startDemo(day: Date): DemoRun {
  const demo = createPortalDemo({ today: day, actionDelayMs: ACTION_DELAY_MS });
  const storage = createMemoryStorage();
  // As after an earlier visit: the portal paints its kept copy first, so the page opens complete
  // (and the prerendered copy of this page shows the project, not a spinner).
  writePortalSnapshot(storage, demo.snapshot());
  runs += 1;
  return { key: runs, day: demoDayKey(day), demo, storage, fileCopies: createMemoryFileCopies() };
}

/**
 * The day the prerendered copy on screen was made for, if any: the live page dates the sample
 * project from the same day, so taking the copy over changes no date in front of the visitor.
 */
function dayOfPrerenderedCopy(): string | null {
  return (
    document
      .getElementById(PRERENDERED_ID)
      ?.querySelector('[data-demo-day]')
      ?.getAttribute('data-demo-day') ?? null
  );
}

function saveSample(bytes: Blob, name: string): void {
  const url = URL.createObjectURL(bytes);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export interface ClientPortalDemoScreenProps {
  /** Hands a sample file to the browser as a download; a test records it instead. */
  saveFile?: (bytes: Blob, name: string) => void;
}

/**
 * The real client portal screen on a made-up project, as a visitor's client would see it. Its
 * "server" (portal-demo-api.ts) and its "device" (portal-demo-device.ts) live in this page's
 * memory: every button works, with the portal's own rules, and nothing is sent or stored.
 */
export function ClientPortalDemoScreen({ saveFile = saveSample }: ClientPortalDemoScreenProps) {
  usePageTitle(sitePageTitle('/client-portal-demo'));
  useTakeOverPrerenderedPage();
  const [run, setRun] = useState(() => startDemo(demoDay(dayOfPrerenderedCopy())));
  const [left, setLeft] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const leftHeadingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (left) leftHeadingRef.current?.focus();
  }, [left]);

  const reset = () => {
    setRun(startDemo(demoDay()));
    setLeft(false);
    setAnnouncement('The demo was reset: the sample project is as it was.');
  };

  const sample = (url: string) => run.demo.fileOfLink(url);

  return (
    <>
      <PageHeader
        eyebrow="What your clients see"
        title="Client portal demo"
        lead="This is the real client portal, on a made-up project. Approve a milestone, answer a quote or ask for a change: it all happens in your browser, and nothing is sent anywhere."
      />
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-[1fr_18rem]">
        <section
          aria-labelledby="demo-portal-label"
          data-demo-day={run.day}
          className="min-w-0 overflow-hidden rounded-3xl border border-border bg-surface shadow-xl shadow-brand/5"
        >
          <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 border-b border-border bg-surface-muted px-5 py-2 text-sm text-fg-muted sm:px-8">
            <span id="demo-portal-label" className="inline-flex items-center gap-1.5">
              <Lock aria-hidden="true" size={14} /> Sample portal, running in your browser
            </span>
            <Button variant="ghost" className="-mr-3" onPress={reset}>
              <RotateCcw aria-hidden="true" size={16} /> Reset demo
            </Button>
          </div>
          <div className="p-5 sm:p-8">
            {left ? (
              <div className="flex flex-col items-start gap-3 py-6">
                <h2
                  ref={leftHeadingRef}
                  tabIndex={-1}
                  className="text-2xl font-bold tracking-tight text-fg outline-none"
                >
                  You left the portal
                </h2>
                <p className="max-w-prose text-fg-muted">
                  Your client would now see the password page again, and the copy of the project
                  kept on their device would be gone.
                </p>
                <Button onPress={reset}>
                  <LogIn aria-hidden="true" size={16} /> Open the sample portal again
                </Button>
              </div>
            ) : (
              <PortalProjectScreen
                key={run.key}
                embedded
                projectId={run.demo.projectId}
                clientId={run.demo.clientId}
                callEndpoint={run.demo.callEndpoint}
                toGate={() => setLeft(true)}
                storage={run.storage}
                fileCopies={run.fileCopies}
                fetchFile={(url) => {
                  const file = sample(url);
                  return file
                    ? Promise.resolve(file.bytes)
                    : Promise.reject(new Error('Not a link of the demo.'));
                }}
                saveFile={saveFile}
                uploadFile={run.demo.uploadFile}
                startDownload={(url) => {
                  const file = sample(url);
                  if (file) saveFile(file.bytes, file.name);
                }}
              />
            )}
          </div>
          <p role="status" className="sr-only">
            {announcement}
          </p>
        </section>
        <aside aria-label="About the portal" className="flex flex-col gap-4">
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
          <div className="rounded-2xl border border-border bg-surface p-5">
            <h2 className="font-semibold text-fg">About this demo</h2>
            <ul className="mt-3 space-y-3 text-sm text-fg-muted">
              {aboutDemo.map((line) => (
                <li key={line} className="flex gap-2">
                  <Info aria-hidden="true" size={16} className="mt-0.5 shrink-0 text-brand" />
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
