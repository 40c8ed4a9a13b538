/**
 * The portal pages' static copy (scripts/prerender-site.mjs writes it with portal-prerender.tsx):
 * the password gate, or a project page's loading state, painted from HTML and CSS before any
 * script runs. The portal's entry (portal-app.tsx) renders the live page beside it and, in the
 * commit that shows it, removes the copy; what the visitor did meanwhile is carried over: what
 * they typed (fields are found by name), the field they were in, and a submit (the copy's form is
 * a plain element, so nothing can be sent from it, the password least of all).
 * Plain DOM work: the first part runs in the entry chunk, before React.
 */

/** The copy's element (the public site's id: the same style hides #root while it shows). */
export const PORTAL_COPY_ID = 'prerendered';
const HELD_SUBMIT = 'data-held-submit';
const HELD_PRESS = 'data-held-press';
/** Set on <html> by /portal-init.js: which page's copy shows (portal-init-script.ts). */
export const PORTAL_PAGE_ATTRIBUTE = 'data-portal-page';

const engagementEvents = [
  'pointermove',
  'pointerdown',
  'touchstart',
  'keydown',
  'focusin',
  'input',
  'wheel',
  'scroll',
] as const;

/**
 * Calls `start` once, at the visitor's first engagement with the page: the gate's copy is the
 * whole page until the password is typed, and starting the portal during load only kept a phone
 * busy while it was read (as on the public site, src/app/boot-when-engaged.ts). The heading
 * taking the focus on load (autofocus, as the live screen focuses it) is no engagement.
 */
export function startWhenEngaged(
  events: Pick<Window, 'addEventListener' | 'removeEventListener'>,
  start: () => void,
): void {
  const options = { capture: true, passive: true } as const;
  const engage = (event: Event) => {
    if (event.type === 'focusin' && event.target instanceof Element && event.target.matches('h1'))
      return;
    for (const type of engagementEvents) events.removeEventListener(type, engage, options);
    start();
  };
  for (const type of engagementEvents) events.addEventListener(type, engage, options);
}

/**
 * Called by the entry on a portal page: a submit on the copy is held for the live page, and so is
 * a press of a button of a project's copy (portal-project-copy.ts), pressed again on the live
 * page's same button.
 */
export function holdCopySubmit(copy: HTMLElement): void {
  const hold = () => copy.setAttribute(HELD_SUBMIT, '');
  copy.addEventListener(
    'click',
    (event) => {
      if (!(event.target instanceof Element)) return;
      if (event.target.closest('button[type="submit"]')) hold();
      const pressed = event.target.closest<HTMLButtonElement>(
        '[data-portal-copy="project"] button',
      );
      if (pressed && !pressed.disabled) {
        copy.setAttribute(HELD_PRESS, JSON.stringify(pressOf(pressed, copy)));
      }
    },
    { capture: true },
  );
  copy.addEventListener(
    'keydown',
    (event) => {
      if (event.key === 'Enter' && event.target instanceof HTMLInputElement) hold();
    },
    { capture: true },
  );
}

/**
 * A button of the page by what a visitor sees: its section's heading, its name, and which of the
 * buttons of that name in that section it is.
 */
export interface CopyPress {
  section: string | null;
  name: string;
  index: number;
}

const buttonName = (button: Element) =>
  (button.getAttribute('aria-label') ?? button.textContent ?? '').replace(/\s+/g, ' ').trim();
const sectionName = (button: Element) =>
  button.closest('section')?.querySelector('h2')?.textContent?.trim() ?? null;

/** The buttons of `section` (null: the whole page) named `name`. */
function buttonsNamed(root: ParentNode, section: string | null, name: string): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>('button')].filter(
    (button) => sectionName(button) === section && buttonName(button) === name,
  );
}

function pressOf(button: HTMLButtonElement, root: ParentNode): CopyPress {
  const section = sectionName(button);
  const name = buttonName(button);
  return { section, name, index: buttonsNamed(root, section, name).indexOf(button) };
}

function readPress(raw: string | null): CopyPress | null {
  if (raw === null) return null;
  try {
    const press = JSON.parse(raw) as Partial<CopyPress>;
    return typeof press.name === 'string' && typeof press.index === 'number'
      ? {
          section: typeof press.section === 'string' ? press.section : null,
          name: press.name,
          index: press.index,
        }
      : null;
  } catch {
    return null;
  }
}

export interface CopyState {
  /** Typed values by field name. */
  values: [name: string, value: string][];
  /** The field the visitor was in, with its selection. */
  focused: { name: string; start: number | null; end: number | null } | null;
  submit: boolean;
  /** A button of a project's copy the visitor pressed, pressed again on the live page. */
  press: CopyPress | null;
}

/** Reads what the visitor left on the copy, and removes it. Null without a copy. */
export function takeCopy(doc: Document): CopyState | null {
  const copy = doc.getElementById(PORTAL_COPY_ID);
  if (!copy) return null;
  const fields = [
    ...copy.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[name], textarea[name]'),
  ];
  const active = doc.activeElement;
  const focusedField = fields.find((field) => field === active) ?? null;
  const state: CopyState = {
    values: fields
      .filter((field) => field.value !== field.defaultValue)
      .map((field) => [field.name, field.value]),
    focused: focusedField
      ? {
          name: focusedField.name,
          start: selectionOf(focusedField, 'selectionStart'),
          end: selectionOf(focusedField, 'selectionEnd'),
        }
      : null,
    submit: copy.hasAttribute(HELD_SUBMIT),
    press: readPress(copy.getAttribute(HELD_PRESS)),
  };
  copy.remove();
  return state;
}

function selectionOf(
  field: HTMLInputElement | HTMLTextAreaElement,
  key: 'selectionStart' | 'selectionEnd',
): number | null {
  try {
    return field[key];
  } catch {
    return null;
  }
}

/** Sets a field's value the way typing does, so React's onChange sees it. */
function typeInto(field: HTMLInputElement | HTMLTextAreaElement, value: string) {
  // React tracks the value it last set through the element's own property; the prototype's
  // setter bypasses that tracker, so React sees a change, as from typing.
  Reflect.set(Object.getPrototypeOf(field) as object, 'value', value, field);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * Gives the live page what the copy held. A held submit goes on a later task, once the typed
 * values have reached the page's state.
 */
export function handOverCopy(state: CopyState, live: ParentNode): void {
  const byName = (name: string) =>
    live.querySelector<HTMLInputElement | HTMLTextAreaElement>(
      `input[name="${CSS.escape(name)}"], textarea[name="${CSS.escape(name)}"]`,
    );
  for (const [name, value] of state.values) {
    const field = byName(name);
    if (field) typeInto(field, value);
  }
  if (state.focused) {
    const field = byName(state.focused.name);
    field?.focus({ preventScroll: true });
    try {
      if (field && state.focused.start !== null) {
        field.setSelectionRange(state.focused.start, state.focused.end);
      }
    } catch {
      // No selection API on this input type: the caret stays where focus put it.
    }
  }
  if (state.submit) {
    setTimeout(() => live.querySelector('form')?.requestSubmit(), 0);
  }
  const press = state.press;
  if (press) {
    // Its section may come a moment after the page's first commit (portal-project-screen.tsx).
    let tries = 0;
    const pressAgain = () => {
      const button = buttonsNamed(live, press.section, press.name)[press.index];
      if (button) button.click();
      else if ((tries += 1) < 40) setTimeout(pressAgain, 50);
    };
    setTimeout(pressAgain, 0);
  }
}
