/**
 * Choosing a client by typing (a combobox, so 10,000 clients stay usable): matches on name and
 * company, at most MAX_SHOWN at once. With `allowCreate`, a name that matches nobody can become a
 * new client, created together with the project. Archived clients say so in the list, and their
 * names count as taken: typing one offers it, never a duplicate of it.
 */
import { ChevronDown, Plus, X } from 'lucide-react';
import { useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import { flushSync } from 'react-dom';
import {
  Button,
  ComboBox,
  FieldError,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Text,
  type Key,
} from 'react-aria-components';
import type { LocalClient } from '../../db/app-database.ts';

export type ClientChoice = { kind: 'existing'; id: string } | { kind: 'new'; name: string };

export interface ClientPickerHandle {
  /** Focuses the field without opening its list (to point at an error, the list would hide it). */
  focus: () => void;
}

export interface ClientPickerProps {
  label: string;
  isLabelHidden?: boolean;
  clients: readonly LocalClient[];
  value: ClientChoice | null;
  onChange: (value: ClientChoice | null) => void;
  allowCreate?: boolean;
  placeholder?: string;
  description?: string;
  error?: string | undefined;
  autoFocus?: boolean;
  className?: string;
  /** `when-typed`: archived clients are listed only once the text typed matches them. */
  archived?: 'listed' | 'when-typed';
  handleRef?: Ref<ClientPickerHandle>;
}

const MAX_SHOWN = 50;
const NEW_KEY = '__new_client__';

interface Item {
  id: string;
  name: string;
  detail: string | null;
  archived: boolean;
}

function labelOf(value: ClientChoice | null, clients: readonly LocalClient[]): string {
  if (value === null) return '';
  if (value.kind === 'new') return value.name;
  return clients.find((client) => client.id === value.id)?.name ?? '';
}

export function ClientPicker({
  label,
  isLabelHidden = false,
  clients,
  value,
  onChange,
  allowCreate = false,
  placeholder,
  description,
  error,
  autoFocus,
  className = '',
  archived = 'listed',
  handleRef,
}: ClientPickerProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  // The list opens on focus, except for a focus from `handleRef` (until the field is left).
  const [opensOnFocus, setOpensOnFocus] = useState(true);
  useImperativeHandle(handleRef, () => ({
    focus() {
      // Rendered first: the combobox reads its menu trigger when the focus arrives.
      flushSync(() => setOpensOnFocus(false));
      inputRef.current?.focus();
    },
  }));
  const selectedLabel = labelOf(value, clients);
  const [inputValue, setInputValue] = useState(selectedLabel);
  // What the user typed since the last choice; empty shows every client (the list on open).
  const [filter, setFilter] = useState('');
  const [syncedLabel, setSyncedLabel] = useState(selectedLabel);
  if (syncedLabel !== selectedLabel) {
    // The choice changed from outside (cleared, or the client was renamed by a sync).
    setSyncedLabel(selectedLabel);
    setInputValue(selectedLabel);
    setFilter(value?.kind === 'new' ? selectedLabel : '');
  }

  const needle = filter.trim().toLowerCase();
  const matches = useMemo(
    () =>
      clients.filter((client) =>
        needle === ''
          ? !(client.archived && archived === 'when-typed')
          : client.name.toLowerCase().includes(needle) ||
            (client.company?.toLowerCase().includes(needle) ?? false),
      ),
    [clients, needle, archived],
  );
  const typed = filter.trim();
  const exact = clients.some((client) => client.name.toLowerCase() === typed.toLowerCase());
  const items: Item[] = matches.slice(0, MAX_SHOWN).map((client) => ({
    id: client.id,
    name: client.name,
    detail: client.company,
    archived: client.archived,
  }));
  if (allowCreate && typed !== '' && !exact) {
    items.push({ id: NEW_KEY, name: typed, detail: null, archived: false });
  }
  const selectedKey: Key | null =
    value === null ? null : value.kind === 'existing' ? value.id : NEW_KEY;

  const choose = (key: Key | null) => {
    if (key === null) return;
    if (key === NEW_KEY) {
      // The filter stays: it is the new client's name, and it keeps the "create" item listed.
      if (typed === '') return;
      onChange({ kind: 'new', name: typed });
      setInputValue(typed);
      return;
    }
    const client = clients.find((candidate) => candidate.id === key);
    if (!client) return;
    onChange({ kind: 'existing', id: client.id });
    setInputValue(client.name);
    setFilter('');
  };

  return (
    <ComboBox
      items={items}
      value={selectedKey}
      onChange={choose}
      inputValue={inputValue}
      onInputChange={(next) => {
        setInputValue(next);
        setFilter(next);
      }}
      menuTrigger={opensOnFocus ? 'focus' : 'input'}
      onBlur={() => setOpensOnFocus(true)}
      allowsEmptyCollection
      isInvalid={error !== undefined}
      validationBehavior="aria"
      className={`flex flex-col gap-1.5 ${className}`}
      {...(autoFocus ? { autoFocus } : {})}
    >
      <Label className={isLabelHidden ? 'sr-only' : 'text-sm font-medium text-fg'}>{label}</Label>
      <div className="relative flex items-center">
        <Input
          ref={inputRef}
          {...(placeholder === undefined ? {} : { placeholder })}
          className={`min-h-11 w-full min-w-0 rounded-lg border border-border-strong bg-surface pl-3 ${value === null ? 'pr-10' : 'pr-20'} text-base text-fg shadow-xs outline-none placeholder:text-fg-muted data-focused:border-ring data-focused:ring-2 data-focused:ring-ring/30 data-invalid:border-danger sm:min-h-10 sm:text-sm`}
        />
        <div className="absolute right-1 flex items-center">
          {value !== null ? (
            <Button
              slot={null}
              aria-label={`Clear ${label.toLowerCase()}`}
              onPress={() => onChange(null)}
              className="grid size-9 cursor-pointer place-items-center rounded-md text-fg-muted outline-none hover:text-fg data-focus-visible:ring-2 data-focus-visible:ring-ring sm:size-8"
            >
              <X aria-hidden="true" size={16} />
            </Button>
          ) : null}
          <Button className="grid size-9 cursor-pointer place-items-center rounded-md text-fg-muted outline-none hover:text-fg sm:size-8">
            <ChevronDown aria-hidden="true" size={16} />
          </Button>
        </div>
      </div>
      {value?.kind === 'new' ? (
        <Text slot="description" className="text-sm text-fg-muted">
          A new client “{value.name}” will be created with the project.
        </Text>
      ) : description ? (
        <Text slot="description" className="text-sm text-fg-muted">
          {description}
        </Text>
      ) : null}
      <FieldError className="text-sm font-medium text-danger">{error}</FieldError>
      <Popover className="max-h-72 w-(--trigger-width) overflow-auto rounded-xl border border-border bg-surface p-1 text-fg shadow-lg outline-none">
        <ListBox<Item>
          className="outline-none"
          renderEmptyState={() => (
            <p className="px-3 py-2 text-sm text-fg-muted">
              {clients.length === 0
                ? allowCreate
                  ? 'No clients yet. Type a name to add one.'
                  : 'No clients yet.'
                : 'No client matches.'}
            </p>
          )}
        >
          {(item) => (
            <ListBoxItem
              id={item.id}
              textValue={
                item.id === NEW_KEY
                  ? `Create new client ${item.name}`
                  : item.archived
                    ? `${item.name} (archived)`
                    : item.name
              }
              className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-3 text-sm outline-none data-focused:bg-surface-muted data-selected:font-semibold sm:min-h-9"
            >
              {item.id === NEW_KEY ? (
                <>
                  <Plus aria-hidden="true" size={16} className="text-brand" />
                  <span>
                    Create new client “<span className="font-semibold">{item.name}</span>”
                  </span>
                </>
              ) : (
                <span className="flex min-w-0 flex-col">
                  {/* One text: the option's name reads "Zed Zoo (archived)" with its space. */}
                  <span className="truncate">
                    {item.archived ? `${item.name} (archived)` : item.name}
                  </span>
                  {item.detail ? (
                    <span className="truncate text-xs text-fg-muted">{item.detail}</span>
                  ) : null}
                </span>
              )}
            </ListBoxItem>
          )}
        </ListBox>
        {matches.length > MAX_SHOWN ? (
          <p className="px-3 py-2 text-xs text-fg-muted">
            Showing {MAX_SHOWN} of {matches.length}. Type to narrow down.
          </p>
        ) : null}
      </Popover>
    </ComboBox>
  );
}
