export type LogoSize = 'small' | 'medium' | 'large';

const pixels: Record<LogoSize, number> = { small: 28, medium: 40, large: 72 };

export interface LogoProps {
  size?: LogoSize;
  /**
   * Accessible name. Pass `null` when the logo sits next to the visible word "Satchel", so screen
   * readers do not hear the name twice.
   */
  label?: string | null;
  className?: string;
}

/** The Satchel mark: a leather satchel with a clasp. Colours come from the design tokens. */
export function Logo({ size = 'medium', label = 'Satchel', className }: LogoProps) {
  const px = pixels[size];
  const a11y = label === null ? { 'aria-hidden': true } : { role: 'img', 'aria-label': label };
  return (
    <svg
      viewBox="0 0 64 64"
      width={px}
      height={px}
      className={className}
      data-size={size}
      focusable="false"
      {...a11y}
    >
      <path
        d="M23 19v-3a9 9 0 0 1 18 0v3"
        fill="none"
        stroke="var(--color-logo-handle)"
        strokeWidth="4.5"
        strokeLinecap="round"
      />
      <rect x="7" y="19" width="50" height="38" rx="9" fill="var(--color-logo-body)" />
      <path
        d="M7 28a9 9 0 0 1 9-9h32a9 9 0 0 1 9 9v4c0 5.5-11 10-25 10S7 37.5 7 32z"
        fill="var(--color-logo-flap)"
      />
      <rect x="27.5" y="35" width="9" height="12" rx="2.5" fill="var(--color-logo-clasp)" />
      <rect x="30.5" y="41" width="3" height="3" rx="1" fill="var(--color-logo-flap)" />
    </svg>
  );
}
