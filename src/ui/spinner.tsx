export interface SpinnerProps {
  /** Announced to screen readers; omit when the surrounding element already says it is loading. */
  label?: string;
  size?: 'small' | 'medium';
  className?: string;
}

export function Spinner({ label, size = 'medium', className = '' }: SpinnerProps) {
  const px = size === 'small' ? 16 : 28;
  const a11y =
    label === undefined ? { 'aria-hidden': true } : { role: 'status', 'aria-label': label };
  return (
    <span className={`inline-flex text-brand ${className}`} {...a11y}>
      <svg viewBox="0 0 24 24" width={px} height={px} className="animate-spin" fill="none">
        <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.2" strokeWidth="3" />
        <path
          d="M21 12a9 9 0 0 0-9-9"
          stroke="currentColor"
          strokeWidth="3"
          strokeLinecap="round"
        />
      </svg>
    </span>
  );
}
