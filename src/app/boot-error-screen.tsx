import { CloudOff } from 'lucide-react';
import { Button } from '../ui/button.tsx';
import { Logo } from '../ui/logo.tsx';
import { usePageTitle } from '../ui/use-page-title.ts';

export interface BootErrorScreenProps {
  onRetry: () => void;
}

/**
 * Shown when the app cannot start because the server's public config could not be read (and no
 * earlier copy is kept): without it there is no way to know where sign-in lives.
 */
export function BootErrorScreen({ onRetry }: BootErrorScreenProps) {
  usePageTitle("Satchel can't start");
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-canvas px-4 py-12 text-center text-fg">
      <Logo size="medium" label="Satchel" />
      <div role="alert" className="mt-8 flex max-w-md flex-col items-center">
        <span className="grid size-14 place-items-center rounded-2xl bg-brand-soft text-brand">
          <CloudOff aria-hidden="true" size={28} />
        </span>
        <h1 className="mt-6 text-2xl font-bold tracking-tight text-balance sm:text-3xl">
          Can't reach Satchel
        </h1>
        <p className="mt-3 text-fg-muted">
          The app could not load its settings from the server. Check your connection, then try
          again.
        </p>
      </div>
      <Button size="large" className="mt-8" onPress={onRetry} autoFocus>
        Try again
      </Button>
    </main>
  );
}
