import { Monitor, Moon, Sun } from 'lucide-react';
import { ToggleButton, ToggleButtonGroup, type Key } from 'react-aria-components';
import { parseThemePreference, type ThemePreference } from './theme.ts';
import { useTheme } from './use-theme.ts';

const options: { id: ThemePreference; label: string; Icon: typeof Sun }[] = [
  { id: 'light', label: 'Light theme', Icon: Sun },
  { id: 'dark', label: 'Dark theme', Icon: Moon },
  { id: 'system', label: 'Use system theme', Icon: Monitor },
];

export interface ThemeToggleProps {
  className?: string;
}

/** Light / dark / system, as one single-choice group of icon buttons. */
export function ThemeToggle({ className = '' }: ThemeToggleProps) {
  const { preference, setPreference } = useTheme();
  const onSelectionChange = (keys: Set<Key>) => {
    const [first] = keys;
    if (first !== undefined) setPreference(parseThemePreference(first));
  };
  return (
    <ToggleButtonGroup
      aria-label="Colour theme"
      selectionMode="single"
      disallowEmptySelection
      selectedKeys={[preference]}
      onSelectionChange={onSelectionChange}
      className={`inline-flex rounded-lg border border-border bg-surface p-0.5 ${className}`}
    >
      {options.map(({ id, label, Icon }) => (
        <ToggleButton
          key={id}
          id={id}
          aria-label={label}
          className="grid size-11 cursor-pointer place-items-center rounded-md text-fg-muted hover:text-fg data-selected:bg-brand-soft data-selected:text-brand sm:size-8"
        >
          <Icon aria-hidden="true" size={16} />
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
