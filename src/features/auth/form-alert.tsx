import { CircleAlert, CircleCheck, Info } from 'lucide-react';
import type { ReactNode } from 'react';

export interface FormAlertProps {
  tone?: 'error' | 'success' | 'info';
  children: ReactNode;
  /** A button or link under the message (resend, retry). */
  action?: ReactNode;
  className?: string;
}

const tones = {
  error: { Icon: CircleAlert, box: 'border-danger/40 bg-danger/5', icon: 'text-danger' },
  success: { Icon: CircleCheck, box: 'border-success/40 bg-success/5', icon: 'text-success' },
  info: { Icon: Info, box: 'border-border bg-surface-muted', icon: 'text-brand' },
};

/**
 * A form-level message. Errors are `role="alert"` so screen readers announce them as they
 * appear; the others are polite status messages.
 */
export function FormAlert({ tone = 'error', children, action, className = '' }: FormAlertProps) {
  const { Icon, box, icon } = tones[tone];
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`flex gap-3 rounded-xl border p-4 text-sm text-fg ${box} ${className}`}
    >
      <Icon aria-hidden="true" size={18} className={`mt-0.5 shrink-0 ${icon}`} />
      <div className="min-w-0 flex-1">
        <div className="font-medium">{children}</div>
        {action ? <div className="mt-3">{action}</div> : null}
      </div>
    </div>
  );
}
