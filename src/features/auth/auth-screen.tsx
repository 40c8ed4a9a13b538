import type { ReactNode } from 'react';
import { usePageTitle } from '../../ui/use-page-title.ts';

export interface AuthScreenProps {
  /** The page's h1 and the first part of document.title. */
  title: string;
  lead?: ReactNode;
  /** Icon shown above the title (check your inbox, ...). */
  icon?: ReactNode;
  children: ReactNode;
  /** Under the card: "New to Satchel? Create an account". */
  footer?: ReactNode;
}

/** The card every sign-in, sign-up and password screen sits in. */
export function AuthScreen({ title, lead, icon, children, footer }: AuthScreenProps) {
  usePageTitle(title);
  return (
    <div className="flex flex-col gap-6">
      <section className="rounded-2xl border border-border bg-surface p-6 shadow-sm sm:p-8">
        {icon ? (
          <span className="mb-5 grid size-12 place-items-center rounded-xl bg-brand-soft text-brand">
            {icon}
          </span>
        ) : null}
        <h1 className="text-2xl font-bold tracking-tight text-balance text-fg sm:text-3xl">
          {title}
        </h1>
        {lead ? <p className="mt-2 text-fg-muted">{lead}</p> : null}
        <div className="mt-6">{children}</div>
      </section>
      {footer ? <div className="text-center text-sm text-fg-muted">{footer}</div> : null}
    </div>
  );
}
