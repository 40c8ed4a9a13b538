/**
 * Saves a file an API call answers (an invoice's PDF) under the name the server gave it. Fetched
 * rather than linked so a refusal is shown as the server's words instead of saved as a file, and
 * so a member's call can carry the bearer token.
 */
import { GENERIC_ERROR_MESSAGE, errorBodySchema } from '#contract/errors.ts';
import * as v from 'valibot';

export const OFFLINE_DOWNLOAD =
  'You are offline: the PDF is made on the server, so it needs a connection.';

/** The `filename*` (UTF-8) or `filename` of a Content-Disposition header. */
export function dispositionFileName(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  const plain = /filename="([^"]+)"/i.exec(header) ?? /filename=([^;]+)/i.exec(header);
  return plain?.[1]?.trim() ?? null;
}

export async function downloadFile(
  url: string,
  init: RequestInit,
  fallbackName: string,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new Error(OFFLINE_DOWNLOAD);
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    const parsed = v.safeParse(errorBodySchema, body);
    throw new Error(parsed.success ? parsed.output.error.message : GENERIC_ERROR_MESSAGE);
  }
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = dispositionFileName(response.headers.get('content-disposition')) ?? fallbackName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has the blob once the click is handled; a minute covers a slow save dialog.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
