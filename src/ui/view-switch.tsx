/**
 * A screen's view choice (board or list, list or grid): one segmented control, one choice always
 * selected, each option an icon with its word.
 */
import type { LucideIcon } from 'lucide-react';
import { ToggleButton, ToggleButtonGroup } from 'react-aria-components';

export interface ViewOption<K extends string> {
  id: K;
  label: string;
  Icon: LucideIcon;
}

export function ViewSwitch<K extends string>({
  options,
  value,
  onChange,
  className = '',
  wordsFromSm = false,
}: {
  options: readonly ViewOption<K>[];
  value: K;
  onChange: (value: K) => void;
  className?: string;
  /** Below `sm` the words are for screen readers only (a crowded toolbar on phones). */
  wordsFromSm?: boolean;
}) {
  return (
    <ToggleButtonGroup
      aria-label="View"
      selectionMode="single"
      disallowEmptySelection
      selectedKeys={[value]}
      onSelectionChange={(keys) => {
        const chosen = options.find((option) => keys.has(option.id));
        if (chosen) onChange(chosen.id);
      }}
      className={`inline-flex rounded-lg border border-border bg-surface p-0.5 ${className}`.trim()}
    >
      {options.map(({ id, label, Icon }) => (
        <ToggleButton
          key={id}
          id={id}
          className="flex min-h-10 cursor-pointer items-center gap-1.5 rounded-md px-3 text-sm font-medium text-fg-muted outline-none hover:text-fg data-focus-visible:ring-2 data-focus-visible:ring-ring data-selected:bg-brand-soft data-selected:text-brand sm:min-h-8"
        >
          <Icon aria-hidden="true" size={16} />
          {wordsFromSm ? <span className="sr-only sm:not-sr-only">{label}</span> : label}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
