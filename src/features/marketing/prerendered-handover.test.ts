import { afterEach, describe, expect, it, vi } from 'vitest';
import { handOverToLivePage, hasStateToHandOver, markHeldClick } from './prerendered-handover.ts';

const markup = `<main><form>
  <input name="name" value="">
  <textarea name="message"></textarea>
  <input type="checkbox" name="agree">
  <select name="topic"><option value="a">A</option><option value="b">B</option></select>
  <button type="button">Send</button>
  <a href="/faq">FAQ</a>
</form></main>`;

function twoCopies() {
  const copy = document.createElement('div');
  const live = document.createElement('div');
  copy.innerHTML = markup;
  live.innerHTML = markup;
  document.body.append(copy, live);
  return { copy, live };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('prerendered handover', () => {
  it('has nothing to hand over on an untouched page', () => {
    const { copy } = twoCopies();
    expect(hasStateToHandOver(copy)).toBe(false);
  });

  it('moves typed text, ticks, choices and focus to the same fields of the live page', () => {
    const { copy, live } = twoCopies();
    const input = vi.fn();
    live.addEventListener('input', (event) => input((event.target as HTMLInputElement).name));
    copy.querySelector<HTMLInputElement>('[name=name]')!.value = 'Grace';
    copy.querySelector<HTMLTextAreaElement>('[name=message]')!.value = 'Hello';
    copy.querySelector<HTMLInputElement>('[name=agree]')!.checked = true;
    copy.querySelector<HTMLSelectElement>('[name=topic]')!.value = 'b';
    copy.querySelector<HTMLTextAreaElement>('[name=message]')!.focus();
    expect(hasStateToHandOver(copy)).toBe(true);

    handOverToLivePage(copy, live);
    expect(live.querySelector<HTMLInputElement>('[name=name]')!.value).toBe('Grace');
    expect(live.querySelector<HTMLTextAreaElement>('[name=message]')!.value).toBe('Hello');
    expect(live.querySelector<HTMLInputElement>('[name=agree]')!.checked).toBe(true);
    expect(live.querySelector<HTMLSelectElement>('[name=topic]')!.value).toBe('b');
    expect(document.activeElement).toBe(live.querySelector('[name=message]'));
    // As typing would: the live page's handlers hear an input event per field.
    expect(input.mock.calls.map(([name]) => name as string)).toEqual(
      expect.arrayContaining(['name', 'message', 'topic']),
    );
  });

  it('replays the last held click on the same button; links and text fields are not held', () => {
    const { copy, live } = twoCopies();
    const clicked = vi.fn();
    live.querySelector('button')!.addEventListener('click', clicked);
    expect(markHeldClick(copy, copy.querySelector('a')!)).toBe(false);
    expect(markHeldClick(copy, copy.querySelector('[name=name]')!)).toBe(false);
    expect(markHeldClick(copy, copy.querySelector('[name=agree]')!)).toBe(true);
    expect(markHeldClick(copy, copy.querySelector('button')!)).toBe(true);
    expect(copy.querySelectorAll('[data-held-click]')).toHaveLength(1);

    handOverToLivePage(copy, live);
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(live.querySelector<HTMLInputElement>('[name=agree]')!.checked).toBe(false);
  });

  it('skips an element whose place differs on the live page', () => {
    const { copy, live } = twoCopies();
    live.querySelector('form')!.innerHTML = '<p>Something else</p>';
    copy.querySelector<HTMLInputElement>('[name=name]')!.value = 'Grace';
    markHeldClick(copy, copy.querySelector('button')!);
    expect(() => handOverToLivePage(copy, live)).not.toThrow();
    expect(live.querySelector('input')).toBeNull();
  });
});
