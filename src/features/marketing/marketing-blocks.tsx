import type { ReactNode } from 'react';
import { Link as AriaLink } from 'react-aria-components';
import { LinkButton } from '../../ui/link-button.tsx';

export interface PageHeaderProps {
  /** Small line above the heading, naming the section of the site. */
  eyebrow?: string;
  title: string;
  lead?: ReactNode;
  /** Centred headers suit short pages; long documents read better left-aligned. */
  align?: 'start' | 'center';
  children?: ReactNode;
}

/** The top of a marketing page: its one h1 and the sentence that says what the page is for. */
export function PageHeader({ eyebrow, title, lead, align = 'start', children }: PageHeaderProps) {
  const centred = align === 'center';
  return (
    <div className="relative overflow-hidden border-b border-border">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 -top-48 mx-auto h-80 max-w-4xl rounded-full bg-brand-soft opacity-60 blur-3xl"
      />
      <div
        className={`relative mx-auto max-w-6xl px-4 pt-12 pb-10 sm:px-6 sm:pt-16 sm:pb-14 ${centred ? 'text-center' : ''}`}
      >
        {eyebrow ? <p className="text-sm font-semibold text-brand">{eyebrow}</p> : null}
        <h1
          className={`text-4xl leading-tight font-extrabold tracking-tight text-balance text-fg sm:text-5xl ${eyebrow ? 'mt-2' : ''}`}
        >
          {title}
        </h1>
        {lead ? (
          <p
            className={`mt-4 max-w-2xl text-lg text-pretty text-fg-muted sm:text-xl ${centred ? 'mx-auto' : ''}`}
          >
            {lead}
          </p>
        ) : null}
        {children}
      </div>
    </div>
  );
}

export interface SectionHeadingProps {
  id: string;
  title: string;
  lead?: ReactNode;
  align?: 'start' | 'center';
}

/** An h2 with an optional lead; `id` is what the section's aria-labelledby points at. */
export function SectionHeading({ id, title, lead, align = 'start' }: SectionHeadingProps) {
  const centred = align === 'center';
  return (
    <div className={centred ? 'mx-auto max-w-2xl text-center' : 'max-w-2xl'}>
      <h2
        id={id}
        className="scroll-mt-24 text-2xl font-bold tracking-tight text-balance text-fg sm:text-3xl"
      >
        {title}
      </h2>
      {lead ? <p className="mt-3 text-lg text-pretty text-fg-muted">{lead}</p> : null}
    </div>
  );
}

export interface CallToActionProps {
  title?: string;
  body?: string;
  /** The second button; the pricing page points it elsewhere than itself. */
  secondary?: { href: string; label: string };
}

/** The closing band of a page: one clear next step. */
export function CallToAction({
  title = 'Start free, and take your work with you',
  body = 'Free for your first two active projects. No card needed, and your clients never need an account.',
  secondary = { href: '/pricing', label: 'Compare plans' },
}: CallToActionProps) {
  return (
    <section
      aria-labelledby="cta-heading"
      className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20"
    >
      <div className="relative overflow-hidden rounded-3xl bg-brand px-6 py-12 text-center text-on-brand [--color-ring:var(--color-on-brand)] sm:px-12 sm:py-16">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -right-24 -bottom-24 size-72 rounded-full bg-white/10"
        />
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -top-20 -left-16 size-56 rounded-full bg-white/10"
        />
        <h2
          id="cta-heading"
          className="relative text-2xl font-bold tracking-tight text-balance sm:text-3xl"
        >
          {title}
        </h2>
        <p className="relative mx-auto mt-3 max-w-xl text-lg text-pretty">{body}</p>
        <div className="relative mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <LinkButton href="/signup" size="large" variant="secondary">
            Get started free
          </LinkButton>
          <AriaLink
            href={secondary.href}
            className="inline-flex min-h-12 cursor-pointer items-center justify-center rounded-lg px-6 text-base font-semibold text-on-brand ring-1 ring-on-brand/70 transition-colors ring-inset hover:bg-white/15 data-pressed:bg-white/15"
          >
            {secondary.label}
          </AriaLink>
        </div>
      </div>
    </section>
  );
}
