import type { ReactNode } from 'react';

/** One titled card of the invoice page (details, lines, notes, send, payments). */
export function InvoicePanel({
  id,
  title,
  hideTitle = false,
  action,
  printHide = false,
  children,
}: {
  /** The heading's id: the section is named by it. */
  id: string;
  title: string;
  /** The title is for screen readers only (the card's one field already says it). */
  hideTitle?: boolean;
  action?: ReactNode;
  /** Left out of the print-out (editing and sending are not part of the invoice). */
  printHide?: boolean;
  children: ReactNode;
}) {
  const heading = (
    <h2 id={id} className={hideTitle ? 'sr-only' : 'text-lg font-semibold text-fg'}>
      {title}
    </h2>
  );
  return (
    <section
      aria-labelledby={id}
      {...(printHide ? { 'data-print-hide': true } : {})}
      className="flex flex-col gap-4 rounded-2xl border border-border bg-surface p-4 sm:p-6"
    >
      {action ? (
        <div className="flex flex-wrap items-center justify-between gap-3">
          {heading}
          {action}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}
