import { afterEach, describe, expect, it, vi } from 'vitest';
import { bootWhenEngaged, mustBootAtOnce, type BootEnvironment } from './boot-when-engaged.ts';

function page(markup = '<main><button id="b">Open</button><a href="#x" id="a">X</a></main>') {
  const copy = document.createElement('div');
  copy.innerHTML = markup;
  document.body.append(copy);
  return copy;
}

function env(copy: HTMLElement | null, patch: Partial<BootEnvironment> = {}): BootEnvironment {
  return {
    copy,
    location: { search: '', hash: '' },
    storageKeys: [],
    events: window,
    ...patch,
  };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('mustBootAtOnce', () => {
  it('waits only on a prerendered page with a plain URL and no stored session', () => {
    const copy = page();
    expect(mustBootAtOnce(env(copy))).toBe(false);
    expect(mustBootAtOnce(env(copy, { storageKeys: ['satchel-theme'] }))).toBe(false);
    expect(mustBootAtOnce(env(null))).toBe(true);
    expect(mustBootAtOnce(env(copy, { location: { search: '?session_id=x', hash: '' } }))).toBe(
      true,
    );
    expect(mustBootAtOnce(env(copy, { location: { search: '', hash: '#access_token=x' } }))).toBe(
      true,
    );
    expect(mustBootAtOnce(env(copy, { storageKeys: ['sb-abc-auth-token'] }))).toBe(true);
    expect(mustBootAtOnce(env(copy, { storageKeys: null }))).toBe(true);
    copy.hidden = true;
    expect(mustBootAtOnce(env(copy))).toBe(true);
  });

  it('starts at once on a copy marked for it (the not-found page, served for any path)', () => {
    const copy = page();
    copy.setAttribute('data-boot-at-once', '');
    expect(mustBootAtOnce(env(copy))).toBe(true);
  });
});

describe('bootWhenEngaged', () => {
  it('starts at once without a copy', () => {
    const start = vi.fn();
    bootWhenEngaged(env(null), start);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('starts once, at the first engagement', () => {
    const start = vi.fn();
    bootWhenEngaged(env(page()), start);
    expect(start).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('pointermove'));
    window.dispatchEvent(new Event('keydown'));
    document.body.dispatchEvent(new Event('scroll'));
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('holds a click on a button for the live page, and lets a link navigate', () => {
    const copy = page();
    const start = vi.fn();
    bootWhenEngaged(env(copy), start);
    const button = copy.querySelector('#b')!;
    const buttonClick = new MouseEvent('click', { bubbles: true, cancelable: true });
    button.dispatchEvent(buttonClick);
    expect(buttonClick.defaultPrevented).toBe(true);
    expect(button.hasAttribute('data-held-click')).toBe(true);
    expect(start).toHaveBeenCalledTimes(1);

    const linkClick = new MouseEvent('click', { bubbles: true, cancelable: true });
    copy.querySelector('#a')!.dispatchEvent(linkClick);
    expect(linkClick.defaultPrevented).toBe(false);
    expect(start).toHaveBeenCalledTimes(1);

    // Taken over: the copy is hidden and no longer holds anything.
    copy.hidden = true;
    const late = new MouseEvent('click', { bubbles: true, cancelable: true });
    button.dispatchEvent(late);
    expect(late.defaultPrevented).toBe(false);
  });
});
