/**
 * The way into search from every signed-in page: Cmd/Ctrl+K anywhere (also while typing in a
 * field, as in other apps' palettes) and a Search button in the header. The palette and its index
 * (MiniSearch) load on first use, not with the app: a dynamic import started when the button is
 * hovered or focused, or at the first press.
 */
import { Search } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { LoadedModule } from '../../ui/loaded-module.tsx';

const loadPalette = () => import('./search-palette.tsx');

/** Cmd+K on Apple devices, Ctrl+K elsewhere (either is accepted everywhere). */
export function isSearchShortcut(event: KeyboardEvent): boolean {
  return (
    (event.metaKey || event.ctrlKey) &&
    !event.altKey &&
    !event.shiftKey &&
    event.key.toLowerCase() === 'k'
  );
}

/**
 * The shortcut, pressed once, and not already used by the field it was pressed in: a field that
 * takes the keys itself handles them first (the note editor's Ctrl+K adds a link) and the palette
 * leaves them to it.
 */
export function opensSearch(event: KeyboardEvent): boolean {
  return isSearchShortcut(event) && !event.repeat && !event.defaultPrevented;
}

const isApple = () => /Mac|iPhone|iPad/.test(globalThis.navigator?.platform ?? '');

export function SearchLauncher() {
  const [open, setOpen] = useState(false);
  // Once opened, the index lives on with the shell (later opens are instant); when the shell
  // goes (sign-out), its live queries and memory go too.
  const used = useRef(false);
  const openPalette = () => {
    used.current = true;
    setOpen(true);
  };
  useEffect(
    () => () => {
      if (used.current) void loadPalette().then((palette) => palette.closeSearchIndex());
    },
    [],
  );
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!opensSearch(event)) return;
      // The browser's own Ctrl+K (its search bar) is not what the user means inside the app.
      event.preventDefault();
      // Another dialog owns the screen: the palette does not open over it.
      if (!open && document.querySelector('[aria-modal="true"], [role="alertdialog"]')) return;
      used.current = true;
      setOpen(true);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);
  return (
    <>
      <Button
        onPress={openPalette}
        onHoverStart={() => void loadPalette()}
        onFocus={() => void loadPalette()}
        aria-keyshortcuts="Control+K Meta+K"
        className="flex min-h-10 cursor-pointer items-center gap-2 rounded-lg border border-border px-2.5 text-sm text-fg-muted outline-none hover:bg-surface-muted hover:text-fg data-focus-visible:ring-2 data-focus-visible:ring-ring sm:min-w-48"
      >
        <Search aria-hidden="true" size={18} />
        <span className="sr-only sm:not-sr-only">Search</span>
        <kbd
          aria-hidden="true"
          className="ml-auto hidden rounded border border-border px-1.5 font-sans text-xs sm:inline"
        >
          {isApple() ? '⌘K' : 'Ctrl K'}
        </kbd>
      </Button>
      {open ? (
        <LoadedModule load={loadPalette}>
          {({ default: SearchPalette }) => <SearchPalette onClose={() => setOpen(false)} />}
        </LoadedModule>
      ) : null}
    </>
  );
}
