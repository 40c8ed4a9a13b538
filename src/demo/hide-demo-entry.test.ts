import { afterEach, describe, expect, it, vi } from 'vitest';
import { PRERENDERED_ID } from '../features/marketing/prerendered-handover.ts';
import { DEMO_SHOWN_MARK } from './demo-mode.ts';
import { hideDemoEntry, revealDemoWhenSettled } from './hide-demo-entry.ts';

afterEach(() => {
  document.body.innerHTML = '';
  vi.useRealTimers();
});

function entryPage(): { copy: HTMLElement; root: HTMLElement } {
  document.body.innerHTML = `<div id="${PRERENDERED_ID}"><main id="main"><h1>Demo</h1></main></div><div id="root"><main id="main"><h1>Dashboard</h1></main></div>`;
  return {
    copy: document.getElementById(PRERENDERED_ID)!,
    root: document.getElementById('root')!,
  };
}

describe('hideDemoEntry', () => {
  it('hides the prerendered copy at once, so the skip link reaches the live main, and removes it later', async () => {
    vi.useFakeTimers();
    const { copy, root } = entryPage();
    hideDemoEntry();
    expect(copy.hidden).toBe(true);
    expect(document.getElementById('main')).toBe(root.querySelector('main'));
    expect(copy.isConnected).toBe(true);
    await vi.runAllTimersAsync();
    expect(copy.isConnected).toBe(false);
  });

  it('does nothing where there is no copy (the app shell, a reload of a demo page)', () => {
    document.body.innerHTML = '<div id="root"></div>';
    expect(() => hideDemoEntry()).not.toThrow();
    expect(document.body.innerHTML).toBe('<div id="root"></div>');
  });
});

describe('revealDemoWhenSettled', () => {
  it('keeps the copy while the live page is opening or loading, and hides it once settled', async () => {
    const { copy, root } = entryPage();
    const main = root.querySelector('main')!;
    main.innerHTML = '<h1>Dashboard</h1><p role="status">Opening your workspace…</p>';
    const cancel = revealDemoWhenSettled(document, 60_000);
    expect(copy.hidden).toBe(false);
    main.innerHTML =
      '<h1>Dashboard</h1><section><p>Loading…</p></section><section><ul><li>A task</li></ul></section>';
    await Promise.resolve();
    expect(copy.hidden).toBe(false);
    main.querySelector('section')!.innerHTML = '<ul><li>Another task</li></ul>';
    await vi.waitFor(() => expect(copy.hidden).toBe(true));
    expect(performance.getEntriesByName(DEMO_SHOWN_MARK).at(-1)).toMatchObject({
      detail: { settled: true },
    });
    cancel();
  });

  it('hides the copy at once when the live page has already settled', () => {
    const { copy } = entryPage();
    revealDemoWhenSettled(document, 60_000);
    expect(copy.hidden).toBe(true);
  });

  it('hides the copy after the timeout when the live page never settles', async () => {
    vi.useFakeTimers();
    const { copy, root } = entryPage();
    root.querySelector('main')!.innerHTML = '<p>Loading…</p>';
    revealDemoWhenSettled(document, 3000);
    await vi.advanceTimersByTimeAsync(2999);
    expect(copy.hidden).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(copy.hidden).toBe(true);
  });

  it('does nothing once cancelled (the bar unmounted)', async () => {
    vi.useFakeTimers();
    const { copy, root } = entryPage();
    const main = root.querySelector('main')!;
    main.innerHTML = '<p>Loading…</p>';
    const cancel = revealDemoWhenSettled(document, 3000);
    cancel();
    main.innerHTML = '<p>Done</p>';
    await vi.advanceTimersByTimeAsync(5000);
    expect(copy.hidden).toBe(false);
  });
});
