import type { ReactNode } from 'react';

/** A list's empty or no-match state: what the page is for and the one thing to do next. */
export function EmptyState({
  icon,
  title,
  children,
  action,
}: {
  icon: ReactNode;
  title: string;
  children: ReactNode;
  action: ReactNode;
}) {
  return (
    <section className="flex flex-col items-center rounded-2xl border border-dashed border-border-strong bg-surface px-6 py-12 text-center">
      {icon}
      <h2 className="mt-4 text-xl font-semibold text-fg">{title}</h2>
      <p className="mt-2 max-w-md text-fg-muted">{children}</p>
      <div className="mt-6">{action}</div>
    </section>
  );
}
