/**
 * What a visitor did on a prerendered page before the app took over, carried to the live page.
 * The app starts at the first engagement (src/app/boot-when-engaged.ts), so a quick visitor can
 * type into the copy's fields, focus one, or click a button before the live page exists. The live
 * page renders the same markup as the copy, so each element is found again by its position.
 * Plain DOM work: this runs in the entry chunk, before React.
 */

/** Holds the prerendered markup until the app has rendered the same page (see takeover hook). */
export const PRERENDERED_ID = 'prerendered';
/**
 * On a copy that is right for some URLs only (the not-found page, served for every unknown path):
 * the app starts at once there instead of at the first engagement (boot-when-engaged.ts).
 */
export const BOOT_AT_ONCE_ATTRIBUTE = 'data-boot-at-once';

const HELD_CLICK = 'data-held-click';

/** Fields whose content the handover copies; a click on them is not held. */
const textEntry = 'textarea, select, input:not([type="checkbox"]):not([type="radio"])';

/**
 * Marks `target` as the click to replay once the app has taken over. Returns whether the click
 * is held: a link navigates by itself (to another prerendered page) and a text field's click
 * only places the caret, which the handover's focus restores.
 */
export function markHeldClick(copy: HTMLElement, target: Element): boolean {
  if (target.closest('a[href]') || target.closest(textEntry)) return false;
  for (const marked of copy.querySelectorAll(`[${HELD_CLICK}]`)) marked.removeAttribute(HELD_CLICK);
  target.setAttribute(HELD_CLICK, '');
  return true;
}

/** Element child indices from `ancestor` down to `node`. */
function pathTo(ancestor: Element, node: Element): number[] {
  const path: number[] = [];
  for (let at = node; at !== ancestor; at = at.parentElement!) {
    path.unshift([...at.parentElement!.children].indexOf(at));
  }
  return path;
}

/** The element at the same position under `live`, if the structure matches on the way down. */
function counterpart(copy: HTMLElement, live: HTMLElement, node: Element): HTMLElement | null {
  let from: Element = copy;
  let to: Element = live;
  for (const index of pathTo(copy, node)) {
    from = from.children[index]!;
    const next = to.children[index];
    if (!next || next.tagName !== from.tagName) return null;
    to = next;
  }
  return to instanceof HTMLElement ? to : null;
}

/** Sets a field's value the way typing does, so React's onChange sees it. */
function typeInto(
  field: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement,
  value: string,
) {
  // React tracks the value it last set through the element's own property; the prototype's
  // setter bypasses that tracker, so React sees a change, as from typing.
  Reflect.set(Object.getPrototypeOf(field) as object, 'value', value, field);
  field.dispatchEvent(new Event('input', { bubbles: true }));
  field.dispatchEvent(new Event('change', { bubbles: true }));
}

function changedFields(copy: HTMLElement) {
  return [
    ...copy.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(
      'input, textarea, select',
    ),
  ].filter((field) => {
    if (field instanceof HTMLSelectElement) {
      // With no option marked selected, a single select starts on its first.
      const initial =
        [...field.options].find((option) => option.defaultSelected) ?? field.options[0];
      return field.value !== (initial?.value ?? '');
    }
    if (
      field instanceof HTMLInputElement &&
      (field.type === 'checkbox' || field.type === 'radio')
    ) {
      return field.checked !== field.defaultChecked;
    }
    return field.value !== field.defaultValue;
  });
}

/** Whether the visitor left anything on the copy for the live page to take. */
export function hasStateToHandOver(copy: HTMLElement): boolean {
  return (
    copy.contains(document.activeElement) ||
    copy.querySelector(`[${HELD_CLICK}]`) !== null ||
    changedFields(copy).length > 0
  );
}

/**
 * Copies typed values, ticks and focus from the copy to the live page, then replays a held click.
 * Call with the live page shown (the copy hidden): focus needs a rendered element.
 */
export function handOverToLivePage(copy: HTMLElement, live: HTMLElement): void {
  const focused = copy.contains(document.activeElement) ? document.activeElement : null;
  for (const field of changedFields(copy)) {
    const target = counterpart(copy, live, field);
    if (!target) continue;
    if (
      field instanceof HTMLInputElement &&
      (field.type === 'checkbox' || field.type === 'radio')
    ) {
      if (target instanceof HTMLInputElement && target.checked !== field.checked) target.click();
    } else if (
      target instanceof HTMLInputElement ||
      target instanceof HTMLTextAreaElement ||
      target instanceof HTMLSelectElement
    ) {
      typeInto(target, field.value);
    }
  }
  if (focused) {
    const target = counterpart(copy, live, focused);
    target?.focus({ preventScroll: true });
    if (
      (focused instanceof HTMLInputElement || focused instanceof HTMLTextAreaElement) &&
      (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)
    ) {
      try {
        target.setSelectionRange(focused.selectionStart, focused.selectionEnd);
      } catch {
        // Inputs such as email have no selection API; the caret stays where focus put it.
      }
    }
  }
  const held = copy.querySelector(`[${HELD_CLICK}]`);
  if (held) counterpart(copy, live, held)?.click();
}
