import { Link } from '@tanstack/react-router';
import { useId, type ReactNode } from 'react';

export interface PanelProps<T> {
  title: string;
  icon: ReactNode;
  rows: T[] | undefined;
  empty: string;
  link?: { to: '/projects' | '/clients'; label: string };
  render: (row: T) => ReactNode;
}

/** A dashboard card: a titled list (the first 8 rows), its loading and empty states. */
export function Panel<T extends { id: string }>({
  title,
  icon,
  rows,
  empty,
  link,
  render,
}: PanelProps<T>) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="min-w-0 rounded-2xl border border-border bg-surface p-5"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 id={headingId} className="flex items-center gap-2 font-semibold text-fg">
          {icon}
          {title}
        </h2>
        {link ? (
          <Link to={link.to} className="text-sm font-medium text-brand hover:underline">
            {link.label}
          </Link>
        ) : null}
      </div>
      {rows === undefined ? (
        <p className="mt-3 text-sm text-fg-muted">Loading…</p>
      ) : rows.length === 0 ? (
        <p className="mt-3 text-sm text-fg-muted">{empty}</p>
      ) : (
        <ul className="mt-2 divide-y divide-border">
          {rows.slice(0, 8).map((row) => (
            <li key={row.id}>{render(row)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
