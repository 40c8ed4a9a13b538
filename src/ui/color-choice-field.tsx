import { Ban, Check } from 'lucide-react';
import { FieldError, Label, Radio, RadioGroup } from 'react-aria-components';

export interface ColorChoice {
  /** A CSS colour such as #1D4ED8. */
  value: string;
  /** Its name, read by screen readers and shown as a tooltip (colour alone says nothing). */
  label: string;
}

export interface ColorChoiceFieldProps {
  label: string;
  colors: readonly ColorChoice[];
  /** null: no colour. */
  value: string | null;
  onChange: (value: string | null) => void;
  error?: string | undefined;
  className?: string;
}

const NONE = 'none';

/** A row of colour swatches as one radio group (arrow keys move, the name is announced). */
export function ColorChoiceField({
  label,
  colors,
  value,
  onChange,
  error,
  className = '',
}: ColorChoiceFieldProps) {
  const selected = value === null ? NONE : value.toUpperCase();
  // A colour set elsewhere (another device, the API) stays visible and selected.
  const shown =
    selected === NONE || colors.some((color) => color.value.toUpperCase() === selected)
      ? colors
      : [...colors, { value: selected, label: `Custom colour ${selected}` }];
  const swatch =
    'grid size-11 cursor-pointer place-items-center rounded-full border-2 border-transparent outline-none sm:size-8 ' +
    'data-selected:border-fg data-focus-visible:ring-2 data-focus-visible:ring-ring data-focus-visible:ring-offset-2 data-focus-visible:ring-offset-surface';
  return (
    <RadioGroup
      value={selected}
      onChange={(next) => onChange(next === NONE ? null : next)}
      orientation="horizontal"
      isInvalid={error !== undefined}
      validationBehavior="aria"
      className={`flex flex-col gap-1.5 ${className}`}
    >
      <Label className="text-sm font-medium text-fg">{label}</Label>
      <div className="flex flex-wrap gap-1.5">
        <Radio value={NONE} aria-label="No colour" className={swatch}>
          {() => (
            // A dashed ring with a slash: "none", never an empty box waiting for a tick.
            <span
              title="No colour"
              className="grid size-8 place-items-center rounded-full border border-dashed border-fg-muted text-fg-muted sm:size-6"
            >
              <Ban aria-hidden="true" size={14} />
            </span>
          )}
        </Radio>
        {shown.map((color) => (
          <Radio
            key={color.value}
            value={color.value.toUpperCase()}
            aria-label={color.label}
            className={swatch}
          >
            {({ isSelected }) => (
              <span
                title={color.label}
                className="grid size-8 place-items-center rounded-full text-white sm:size-6"
                style={{ backgroundColor: color.value }}
              >
                {isSelected ? <Check aria-hidden="true" size={14} /> : null}
              </span>
            )}
          </Radio>
        ))}
      </div>
      <FieldError className="text-sm font-medium text-danger">{error}</FieldError>
    </RadioGroup>
  );
}
