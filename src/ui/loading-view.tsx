import { Logo } from './logo.tsx';
import { Spinner } from './spinner.tsx';

export interface LoadingViewProps {
  /** `fullScreen` covers the viewport (app start); `inline` fills the content area of a layout. */
  variant?: 'fullScreen' | 'inline';
}

/** What the user sees while the app or a guarded page is getting ready: the logo and "Loading...". */
export function LoadingView({ variant = 'fullScreen' }: LoadingViewProps) {
  const frame = variant === 'fullScreen' ? 'min-h-dvh' : 'min-h-[50vh]';
  return (
    <div
      role="status"
      aria-live="polite"
      className={`${frame} flex flex-col items-center justify-center gap-4 bg-canvas p-6 text-fg`}
    >
      <Logo size="large" label={null} className="motion-safe:animate-pulse" />
      <div className="flex items-center gap-2 text-fg-muted">
        <Spinner size="small" />
        <span className="text-base font-medium">Loading...</span>
      </div>
    </div>
  );
}
