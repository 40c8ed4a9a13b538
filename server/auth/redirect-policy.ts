/**
 * Where the service may send a browser back to (`redirect_to` of mail links and OAuth). An
 * unchecked redirect_to would make every mail link an open redirect carrying a session, so, as
 * GoTrue does, anything outside the allow list falls back to the site URL.
 *
 * Allowed: the site URL's origin, and each ADDITIONAL_REDIRECT_URLS entry, read as an origin plus
 * a path prefix (`http://localhost:5173` allows that origin, `https://x.example/app` only /app...).
 */
export interface RedirectPolicy {
  /** The validated target, or the site URL when absent or not allowed. */
  resolve(redirectTo: string | null | undefined): string;
}

export function createRedirectPolicy(
  siteUrl: string,
  additional: readonly string[],
): RedirectPolicy {
  const allowed = [siteUrl, ...additional].map((entry) => {
    const url = new URL(entry);
    return { origin: url.origin, path: url.pathname.replace(/\/+$/, '') };
  });
  return {
    resolve(redirectTo) {
      if (!redirectTo || !URL.canParse(redirectTo)) return siteUrl;
      const target = new URL(redirectTo);
      const ok = allowed.some(
        (entry) =>
          entry.origin === target.origin &&
          (entry.path === '' ||
            target.pathname === entry.path ||
            target.pathname.startsWith(`${entry.path}/`)),
      );
      return ok ? target.toString() : siteUrl;
    },
  };
}
