/** A sentence for a failed API call: the server's own message, or a connection hint. */
export function apiErrorMessage(error: unknown): string {
  const { status, message } = error as { status?: unknown; message?: unknown };
  if (status === 0) return "Can't reach the server. Check your connection and try again.";
  return typeof message === 'string' && message ? message : 'Something went wrong!';
}
