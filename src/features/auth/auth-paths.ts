/** Where email confirmation links and Google sign-ins land: it registers the user, then moves on. */
export const confirmRegistrationPath = '/auth/confirm-registration';

/** `path?key=value...` with the defined values, encoded. */
export function withQuery(path: string, query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, value);
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
