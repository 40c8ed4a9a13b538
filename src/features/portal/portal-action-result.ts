/**
 * What a client's action in the portal (a sign-off, an answer to a quote, a new change request)
 * tells the part of the page that asked: done, or why not, in words shown next to it.
 */
import { readSubmitFailure } from '../marketing/form-errors.ts';

export type PortalActionResult =
  | { ok: true }
  | {
      ok: false;
      /** Shown next to the milestone or request, or above the form's buttons. */
      message: string;
      /** The server's field errors (`comment`, `title`…), shown beside those fields. */
      fieldErrors: Partial<Record<string, string>>;
    };

/**
 * A refused call in the portal's words. `offline` is what to say when no answer came back;
 * `fields` are the fields the asking part shows, so an error about any other (an id) is said in
 * the message rather than lost.
 */
export function portalActionFailure(
  error: unknown,
  offline: string,
  fields: readonly string[] = [],
): PortalActionResult {
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 0) return { ok: false, message: offline, fieldErrors: {} };
  const failure = readSubmitFailure<string>(error);
  const shown = Object.entries(failure.fieldErrors).filter(([field]) => fields.includes(field));
  const unshown = Object.entries(failure.fieldErrors).filter(([field]) => !fields.includes(field));
  return {
    ok: false,
    message:
      unshown.length > 0
        ? unshown.map(([, message]) => message).join(' ')
        : shown.length > 0
          ? 'Please check the message next to the field.'
          : failure.message,
    fieldErrors: Object.fromEntries(shown),
  };
}
