import { describe, expect, it } from 'vitest';
import { opensSearch } from './search-launcher.tsx';

const press = (init: KeyboardEventInit, handled = false) => {
  const event = new KeyboardEvent('keydown', { cancelable: true, ...init });
  if (handled) event.preventDefault();
  return event;
};

describe('the search shortcut', () => {
  it('opens on Ctrl+K and Cmd+K, once per press', () => {
    expect(opensSearch(press({ key: 'k', ctrlKey: true }))).toBe(true);
    expect(opensSearch(press({ key: 'K', metaKey: true }))).toBe(true);
    expect(opensSearch(press({ key: 'k', ctrlKey: true, repeat: true }))).toBe(false);
    expect(opensSearch(press({ key: 'k' }))).toBe(false);
    expect(opensSearch(press({ key: 'k', ctrlKey: true, shiftKey: true }))).toBe(false);
  });

  it('leaves the keys to a field that used them (the note editor’s link)', () => {
    expect(opensSearch(press({ key: 'k', ctrlKey: true }, true))).toBe(false);
  });
});
