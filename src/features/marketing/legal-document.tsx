import type { ReactNode } from 'react';
import { PageHeader } from './marketing-blocks.tsx';
import { useTakeOverPrerenderedPage } from './use-prerendered-takeover.ts';

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

export interface LegalDocumentProps {
  title: string;
  lead: ReactNode;
  /** ISO date (YYYY-MM-DD) of the last change to the text. */
  lastUpdated: string;
  sections: readonly LegalSection[];
}

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

export function formatLegalDate(isoDate: string): string {
  return dateFormat.format(new Date(`${isoDate}T00:00:00Z`));
}

/**
 * A legal text laid out to be read: the last-updated date up front, a numbered table of contents
 * (beside the text on wide screens, above it on phones) and a comfortable line length.
 */
export function LegalDocument({ title, lead, lastUpdated, sections }: LegalDocumentProps) {
  useTakeOverPrerenderedPage();
  return (
    <>
      <PageHeader eyebrow="Legal" title={title} lead={lead}>
        <p className="mt-6 text-sm text-fg-muted">
          Last updated{' '}
          <time dateTime={lastUpdated} className="font-semibold text-fg">
            {formatLegalDate(lastUpdated)}
          </time>
        </p>
      </PageHeader>
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-10 sm:px-6 sm:py-14 lg:grid-cols-[16rem_1fr] lg:gap-16">
        <nav aria-labelledby="toc-heading" className="lg:order-none">
          <div className="rounded-2xl border border-border bg-surface p-5 lg:sticky lg:top-24 lg:max-h-[calc(100dvh-7rem)] lg:overflow-y-auto">
            <h2 id="toc-heading" className="text-sm font-semibold text-fg">
              Contents
            </h2>
            <ol className="mt-3 space-y-0.5 text-sm">
              {sections.map((section, index) => (
                <li key={section.id}>
                  <a
                    href={`#${section.id}`}
                    className="flex min-h-10 items-baseline gap-2 rounded-md px-2 py-2 text-fg-muted hover:bg-surface-muted hover:text-fg lg:min-h-0 lg:py-1.5"
                  >
                    <span className="w-5 shrink-0 text-right tabular-nums">{index + 1}.</span>
                    <span>{section.title}</span>
                  </a>
                </li>
              ))}
            </ol>
          </div>
        </nav>
        <div className="max-w-prose min-w-0 text-base leading-relaxed text-fg [&_a]:font-medium [&_a]:text-brand [&_a]:underline [&_a]:underline-offset-4 [&_li]:mt-1.5 [&_p]:mt-4 [&_strong]:font-semibold [&_ul]:mt-4 [&_ul]:list-disc [&_ul]:pl-6">
          {sections.map((section, index) => (
            <section key={section.id} aria-labelledby={section.id} className="mb-12">
              <h2
                id={section.id}
                className="scroll-mt-24 text-xl font-bold tracking-tight text-fg sm:text-2xl"
              >
                <span className="mr-2 text-fg-muted tabular-nums">{index + 1}.</span>
                {section.title}
              </h2>
              {section.body}
            </section>
          ))}
        </div>
      </div>
    </>
  );
}
