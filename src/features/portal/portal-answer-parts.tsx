/**
 * The pieces a client's answer in the portal (a milestone sign-off, a quote decision) is drawn
 * with: the comment step's Send and Cancel, the note saying why the buttons are off while
 * offline, and the server's refusal.
 */
import { CloudOff } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button, type ButtonProps } from '../../ui/button.tsx';

export function AnswerStepActions({
  submitLabel,
  variant,
  pending,
  offline,
  onCancel,
}: {
  submitLabel: string;
  variant?: ButtonProps['variant'];
  pending: boolean;
  offline: boolean;
  onCancel: () => void;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button
        type="submit"
        {...(variant ? { variant } : {})}
        isPending={pending}
        isDisabled={offline}
      >
        {submitLabel}
      </Button>
      <Button variant="secondary" isDisabled={pending} onPress={onCancel}>
        Cancel
      </Button>
    </div>
  );
}

/** Why the answer's buttons are disabled; they point at it with aria-describedby. */
export function OfflineAnswerNote({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="flex items-start gap-2 text-sm text-fg-muted">
      <CloudOff aria-hidden="true" size={16} className="mt-0.5 shrink-0" />
      {children}
    </p>
  );
}

export function AnswerError({ error }: { error: string | null }) {
  return (
    <div role="alert" className="text-sm font-medium text-danger empty:hidden">
      {error}
    </div>
  );
}
