import { Check, ChevronDown } from 'lucide-react';
import type { ReactNode } from 'react';
import {
  Button,
  FieldError,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Select,
  SelectValue,
  Text,
  type Key,
} from 'react-aria-components';

export interface SelectOption<K extends string> {
  id: K;
  label: string;
  /** Shown before the label, in the list and in the closed field (an icon or a colour dot). */
  icon?: ReactNode;
}

export interface SelectFieldProps<K extends string> {
  label: string;
  /** Hide the label visually (a toolbar filter whose purpose the options make plain). */
  isLabelHidden?: boolean;
  options: readonly SelectOption<K>[];
  value: K;
  onChange: (value: K) => void;
  description?: ReactNode;
  error?: string | undefined;
  isDisabled?: boolean;
  className?: string;
  /** Extra classes for the trigger button (width in a toolbar). */
  triggerClassName?: string;
}

const triggerBase =
  'flex min-h-11 w-full min-w-0 cursor-pointer items-center gap-2 rounded-lg border border-border-strong bg-surface px-3 text-left text-base text-fg shadow-xs outline-none sm:min-h-10 sm:text-sm ' +
  'data-focus-visible:border-ring data-focus-visible:ring-2 data-focus-visible:ring-ring/30 data-disabled:cursor-not-allowed data-disabled:opacity-60';

/**
 * A labelled single choice from a short list (react-aria Select: a button and a listbox, with
 * type-ahead and arrow keys). Its error is ours, shown under the field and linked to it.
 */
export function SelectField<K extends string>({
  label,
  isLabelHidden = false,
  options,
  value,
  onChange,
  description,
  error,
  isDisabled = false,
  className = '',
  triggerClassName = '',
}: SelectFieldProps<K>) {
  const byId = new Map(options.map((option) => [option.id as Key, option]));
  return (
    <Select
      value={value}
      onChange={(key) => {
        const option = key === null ? undefined : byId.get(key);
        if (option) onChange(option.id);
      }}
      isInvalid={error !== undefined}
      isDisabled={isDisabled}
      validationBehavior="aria"
      className={`flex flex-col gap-1.5 ${className}`}
    >
      <Label className={isLabelHidden ? 'sr-only' : 'text-sm font-medium text-fg'}>{label}</Label>
      <Button
        className={`${triggerBase} ${error === undefined ? '' : 'border-danger'} ${triggerClassName}`}
      >
        <SelectValue<SelectOption<K>> className="flex min-w-0 flex-1 items-center gap-2 truncate">
          {({ selectedItem, defaultChildren }) =>
            selectedItem ? (
              <>
                {selectedItem.icon}
                <span className="truncate">{selectedItem.label}</span>
              </>
            ) : (
              defaultChildren
            )
          }
        </SelectValue>
        <ChevronDown aria-hidden="true" size={16} className="shrink-0 text-fg-muted" />
      </Button>
      {description ? (
        <Text slot="description" className="text-sm text-fg-muted">
          {description}
        </Text>
      ) : null}
      <FieldError className="text-sm font-medium text-danger">{error}</FieldError>
      <Popover className="max-h-72 min-w-(--trigger-width) overflow-auto rounded-xl border border-border bg-surface p-1 text-fg shadow-lg outline-none">
        <ListBox items={options} className="outline-none">
          {(option) => (
            <ListBoxItem
              id={option.id}
              textValue={option.label}
              className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-3 text-sm outline-none data-focused:bg-surface-muted sm:min-h-9"
            >
              {({ isSelected }) => (
                <>
                  {option.icon}
                  <span className="flex-1 truncate">{option.label}</span>
                  {isSelected ? (
                    <Check aria-hidden="true" size={16} className="text-brand" />
                  ) : null}
                </>
              )}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}
