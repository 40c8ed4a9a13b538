import { FolderKanban, Sparkles, Users, WifiOff } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useAuth } from '../../auth/auth-provider.tsx';
import { Button } from '../../ui/button.tsx';
import { focusPageHeading } from '../../ui/focus-page-heading.ts';

/** localStorage key remembering that `userId` has closed the welcome. */
export function welcomeDismissedKey(userId: string): string {
  return `satchel.welcome-dismissed.${userId}`;
}

function readDismissed(userId: string): boolean {
  try {
    return localStorage.getItem(welcomeDismissedKey(userId)) === '1';
  } catch {
    return false;
  }
}

function rememberDismissed(userId: string): void {
  try {
    localStorage.setItem(welcomeDismissedKey(userId), '1');
  } catch {
    // Without storage the welcome may show again next time: harmless.
  }
}

const points = [
  { Icon: Users, text: 'Add your clients and keep their details in one place.' },
  { Icon: FolderKanban, text: 'Plan projects with milestones, tasks and files.' },
  { Icon: WifiOff, text: 'Keep working offline: changes sync when you are back.' },
];

/**
 * The welcome shown on a user's first dashboard visit in this browser; closing it (button or
 * Escape) is remembered per user. A native <dialog> opened with showModal(): the browser traps
 * focus, makes the page behind inert and closes it on Escape.
 */
export function WelcomeModal() {
  const auth = useAuth();
  const userId = auth.status === 'authenticated' ? auth.user.id : null;
  const firstName =
    auth.status === 'authenticated' ? (auth.user.displayName.split(/\s+/)[0] ?? '') : '';
  const [isOpen, setOpen] = useState(() => userId !== null && !readDismissed(userId));
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const stopFollowing = useRef<() => void>(() => {});
  useEffect(() => () => stopFollowing.current(), []);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!isOpen || !dialog || dialog.open) return;
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
  }, [isOpen]);

  if (!isOpen || userId === null) return null;

  const close = () => {
    rememberDismissed(userId);
    setOpen(false);
    // It opened over a fresh page, so the browser hands focus back to nothing (the body): take
    // it to the page's heading instead, where a first visit reads on from.
    stopFollowing.current();
    stopFollowing.current = focusPageHeading(document.activeElement);
  };
  // Closing through the element lets the browser hand focus back to where it was.
  const dismiss = () => {
    const dialog = dialogRef.current;
    if (dialog?.open && typeof dialog.close === 'function') dialog.close();
    else close();
  };

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      onClose={close}
      className="m-auto w-[calc(100%-2rem)] max-w-lg rounded-2xl border border-border bg-surface p-0 text-fg shadow-xl backdrop:bg-black/50"
    >
      <div className="flex flex-col gap-5 p-6 sm:p-8">
        <span className="grid size-12 place-items-center rounded-xl bg-brand-soft text-brand">
          <Sparkles aria-hidden="true" size={24} />
        </span>
        <div>
          <h2 id={titleId} className="text-2xl font-bold tracking-tight text-balance">
            {firstName ? `Welcome to Satchel, ${firstName}!` : 'Welcome to Satchel!'}
          </h2>
          <p className="mt-2 text-fg-muted">Your workspace is ready. Here is what it is for:</p>
        </div>
        <ul className="flex flex-col gap-3">
          {points.map(({ Icon, text }) => (
            <li key={text} className="flex items-start gap-3">
              <Icon aria-hidden="true" size={20} className="mt-0.5 shrink-0 text-brand" />
              <span>{text}</span>
            </li>
          ))}
        </ul>
        <Button size="large" className="w-full sm:w-auto sm:self-end" onPress={dismiss} autoFocus>
          Get started
        </Button>
      </div>
    </dialog>
  );
}
