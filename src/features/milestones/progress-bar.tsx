import { Label, ProgressBar as AriaProgressBar } from 'react-aria-components';

export interface ProgressBarProps {
  /** The bar's accessible name ("Milestones approved"). */
  label: string;
  /** 0 to 100. */
  value: number;
  /** What the bar says in words, shown above it and read by screen readers. */
  valueText: string;
}

/** A labelled progress bar (role progressbar with its name and value in words). */
export function ProgressBar({ label, value, valueText }: ProgressBarProps) {
  return (
    <AriaProgressBar value={value} valueLabel={valueText} className="flex flex-col gap-2">
      {({ percentage, valueText: text }) => (
        <>
          <div className="flex flex-wrap items-baseline justify-between gap-x-3">
            <Label className="text-sm font-medium text-fg-muted">{label}</Label>
            <span className="font-semibold text-fg">{text}</span>
          </div>
          <div className="h-2.5 overflow-hidden rounded-full bg-surface-muted">
            <div
              className="h-full rounded-full bg-brand transition-[width] motion-reduce:transition-none"
              style={{ width: `${percentage ?? 0}%` }}
            />
          </div>
        </>
      )}
    </AriaProgressBar>
  );
}
