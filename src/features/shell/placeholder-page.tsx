import type { ReactNode } from 'react';
import { ComingSoonPanel } from '../../ui/coming-soon-panel.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';

export interface PlaceholderPageProps {
  /** The page's h1 and the first part of document.title. */
  title: string;
  /** Optional line under the heading. */
  lead?: string;
  /** What the finished screen will do, shown in the "Coming soon" panel. */
  comingSoon: string;
  /** `marketing` pages sit in a wide centred column; the others fill their layout's content area. */
  variant?: 'marketing' | 'content';
  children?: ReactNode;
}

/** A screen owned by later work: its real title and heading, and a "Coming soon" panel. */
export function PlaceholderPage({
  title,
  lead,
  comingSoon,
  variant = 'content',
  children,
}: PlaceholderPageProps) {
  usePageTitle(title);
  const frame = variant === 'marketing' ? 'mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-20' : '';
  return (
    <div className={frame}>
      <h1 className="text-3xl font-bold tracking-tight text-balance text-fg sm:text-4xl">
        {title}
      </h1>
      {lead ? <p className="mt-3 text-lg text-fg-muted">{lead}</p> : null}
      <div className="mt-8">
        <ComingSoonPanel description={comingSoon} />
      </div>
      {children}
    </div>
  );
}
