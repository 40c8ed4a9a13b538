import { CircleCheck } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { TextLink } from '../../ui/text-link.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { forgetDeletedAccountData } from './account-deleted.ts';

/** /account-deleted: where the app lands after the account was deleted (signed out). */
export function AccountDeletedScreen() {
  usePageTitle('Account deleted');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
    forgetDeletedAccountData();
  }, []);
  return (
    <section className="rounded-2xl border border-border bg-surface p-6 shadow-sm sm:p-8">
      <span className="mb-5 grid size-12 place-items-center rounded-xl bg-brand-soft text-brand">
        <CircleCheck aria-hidden="true" size={24} />
      </span>
      <h1
        ref={heading}
        tabIndex={-1}
        className="text-2xl font-bold tracking-tight text-balance text-fg outline-none sm:text-3xl"
      >
        Your account is deleted
      </h1>
      <p className="mt-2 text-fg-muted">
        Your profile, your sign-in and the workspaces only you used are gone, and you are signed out
        on every device. A confirmation is on its way to your inbox.
      </p>
      <p className="mt-4 text-fg-muted">
        Thank you for using Satchel. <TextLink href="/">Back to the home page</TextLink> or{' '}
        <TextLink href="/signup">create a new account</TextLink>.
      </p>
    </section>
  );
}
