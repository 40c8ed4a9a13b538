import { Check, Circle, X } from 'lucide-react';
import { minPasswordLength } from './auth-schemas.ts';

export interface PasswordRulesProps {
  password: string;
  /** The server refused the password as too common (weak_password reason `pwned`). */
  isTooCommon: boolean;
}

type RuleState = 'met' | 'unmet' | 'failed' | 'pending';

const icons = {
  met: <Check aria-hidden="true" size={16} className="text-success" />,
  unmet: <Circle aria-hidden="true" size={14} className="mx-px text-fg-muted" />,
  failed: <X aria-hidden="true" size={16} className="text-danger" />,
  pending: <Circle aria-hidden="true" size={14} className="mx-px text-fg-muted" />,
};

const stateText: Record<RuleState, string> = {
  met: 'done',
  unmet: 'not yet',
  failed: 'not met',
  pending: 'checked when you continue',
};

/**
 * The password rules, ticked as the user types. Length is checked here; whether a password is
 * among the most common ones is the server's call, so that rule only turns red after it said so.
 */
export function PasswordRules({ password, isTooCommon }: PasswordRulesProps) {
  const rules: { label: string; state: RuleState }[] = [
    {
      label: `At least ${minPasswordLength} characters`,
      state: password.length >= minPasswordLength ? 'met' : 'unmet',
    },
    {
      label: 'Not a commonly used password',
      state: isTooCommon ? 'failed' : 'pending',
    },
  ];
  return (
    <ul aria-live="polite" className="mt-1 flex flex-col gap-1">
      {rules.map(({ label, state }) => (
        <li
          key={label}
          data-state={state}
          className={`flex items-center gap-2 ${state === 'met' ? 'text-fg' : state === 'failed' ? 'text-danger' : 'text-fg-muted'}`}
        >
          {icons[state]}
          <span>
            {label}
            <span className="sr-only">: {stateText[state]}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
