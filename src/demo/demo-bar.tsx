/**
 * The demo's bar, at the top of every signed-in screen while the tab runs the demo (app-shell.tsx
 * shows it for the demo user): where the changes go, Reset demo (after a confirm) and Create your
 * account. Both are full page loads (demo-navigation.ts): the app starts again in the right mode.
 */
import { FlaskConical } from 'lucide-react';
import { useLayoutEffect, useState } from 'react';
import { Button as AriaButton } from 'react-aria-components';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { revealDemoWhenSettled } from './hide-demo-entry.ts';
import { leaveDemo, resetDemo } from './demo-navigation.ts';

const barButton =
  'inline-flex min-h-9 cursor-pointer items-center justify-center rounded-lg px-2.5 text-sm sm:px-3 font-semibold whitespace-nowrap outline-none data-focus-visible:ring-2 data-focus-visible:ring-ring';

export function DemoBar() {
  const [confirming, setConfirming] = useState(false);
  const [resetting, setResetting] = useState(false);
  // Opened from /demo, the entry's prerendered copy stays on screen until the first screen has its
  // data: the shell, the bar and the dashboard then appear together (hide-demo-entry.ts).
  useLayoutEffect(() => revealDemoWhenSettled(), []);
  return (
    <section
      aria-label="Demo"
      className="flex flex-wrap items-center gap-x-2 gap-y-1.5 border-b border-border bg-brand-soft px-3 py-1.5 text-sm text-fg sm:gap-x-3 sm:px-6"
    >
      <p className="flex min-w-0 flex-1 items-center gap-2">
        <FlaskConical
          aria-hidden="true"
          size={16}
          className="hidden shrink-0 text-brand sm:block"
        />
        {/* Phones show "Demo" beside the two actions; screen readers always get the sentence. */}
        <span aria-hidden="true" className="font-semibold sm:hidden">
          Demo
        </span>
        <span className="sr-only sm:not-sr-only">
          <strong className="font-semibold">You are in the demo</strong>: changes stay in this
          browser
        </span>
      </p>
      <div className="flex items-center gap-2">
        <AriaButton
          className={`${barButton} border border-border-strong bg-surface text-fg hover:bg-surface-muted`}
          onPress={() => setConfirming(true)}
        >
          Reset demo
        </AriaButton>
        <AriaButton
          className={`${barButton} bg-brand text-on-brand hover:bg-brand-strong`}
          onPress={() => leaveDemo('/signup')}
        >
          Create your account
        </AriaButton>
      </div>
      <ConfirmDialog
        isOpen={confirming}
        title="Reset the demo?"
        confirmLabel="Reset demo"
        isDestructive
        isPending={resetting}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setResetting(true);
          resetDemo();
        }}
      >
        Your changes in the demo are dropped and the sample workspace starts over, on the dashboard.
      </ConfirmDialog>
    </section>
  );
}
