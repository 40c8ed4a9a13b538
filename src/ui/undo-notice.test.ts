// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createToaster } from './toaster.ts';
import { showUndoNotice } from './undo-notice.ts';

afterEach(() => document.body.replaceChildren());

function field(value = ''): HTMLInputElement {
  const input = document.createElement('input');
  input.value = value;
  document.body.append(input);
  input.focus();
  return input;
}

const pressCtrlZ = (target: EventTarget) => {
  const event = new KeyboardEvent('keydown', {
    key: 'z',
    ctrlKey: true,
    bubbles: true,
    cancelable: true,
  });
  target.dispatchEvent(event);
  return event;
};

describe('showUndoNotice', () => {
  it('undoes from an empty field focus was only moved to', () => {
    const undo = vi.fn();
    showUndoNotice(createToaster(), { message: 'Milestone deleted', undo });
    const press = pressCtrlZ(field());
    expect(undo).toHaveBeenCalledTimes(1);
    expect(press.defaultPrevented).toBe(true);
  });

  it('leaves Ctrl+Z to a field that holds text or was typed in since', () => {
    const undo = vi.fn();
    showUndoNotice(createToaster(), { message: 'Milestone deleted', undo });
    expect(pressCtrlZ(field('Draft')).defaultPrevented).toBe(false);
    const typed = field();
    typed.dispatchEvent(new Event('input', { bubbles: true }));
    expect(pressCtrlZ(typed).defaultPrevented).toBe(false);
    expect(undo).not.toHaveBeenCalled();
  });
});
