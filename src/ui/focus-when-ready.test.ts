// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { focusWhenReady } from './focus-when-ready.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function addButton(id: string): HTMLButtonElement {
  const button = document.createElement('button');
  button.id = id;
  document.body.append(button);
  return button;
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('focusWhenReady', () => {
  it('focuses the element once it is rendered', async () => {
    focusWhenReady('#later');
    await wait(50);
    const button = addButton('later');
    await wait(80);
    expect(document.activeElement).toBe(button);
  });

  it('skips a match that is not shown for one that is', async () => {
    const hidden = addButton('cell-chip');
    // jsdom has no layout: this one says what a phone's dot-covered month cell would.
    Object.defineProperty(hidden, 'checkVisibility', { value: () => false });
    const listed = addButton('listed-chip');
    focusWhenReady('#cell-chip, #listed-chip');
    await wait(80);
    expect(document.activeElement).toBe(listed);
  });

  it('focuses the nearest ancestor with the role when asked', async () => {
    const row = document.createElement('div');
    row.setAttribute('role', 'row');
    row.tabIndex = -1;
    const inner = document.createElement('span');
    inner.dataset.taskId = 't1';
    row.append(inner);
    document.body.append(row);
    focusWhenReady('[data-task-id="t1"]', 'row');
    await wait(80);
    expect(document.activeElement).toBe(row);
  });

  it('lets a newer request cancel one still waiting, so focus is not pulled back', async () => {
    focusWhenReady('#first');
    focusWhenReady('#second');
    const second = addButton('second');
    // Past the hold on #second, then the element the first request waited for appears.
    await wait(400);
    expect(document.activeElement).toBe(second);
    addButton('first');
    await wait(100);
    expect(document.activeElement).toBe(second);
  });
});
