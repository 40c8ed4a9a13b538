import { Hammer } from 'lucide-react';
import { useId } from 'react';

export interface ComingSoonPanelProps {
  /** One sentence saying what this screen will do once it is built. */
  description: string;
}

/** Placeholder body for a screen whose real content belongs to a later piece of work. */
export function ComingSoonPanel({ description }: ComingSoonPanelProps) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col items-start gap-3 rounded-2xl border border-dashed border-border-strong bg-surface p-6 sm:flex-row sm:items-center sm:gap-5 sm:p-8"
    >
      <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-brand-soft text-brand">
        <Hammer aria-hidden="true" size={24} />
      </span>
      <div>
        <h2 id={headingId} className="text-lg font-semibold text-fg">
          Coming soon
        </h2>
        <p className="mt-1 text-fg-muted">{description}</p>
      </div>
    </section>
  );
}
