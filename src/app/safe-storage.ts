/**
 * The browser's storage, or undefined where reading it throws (storage disabled, some privacy
 * modes): every caller then works without it.
 */
export function safeStorage(kind: 'localStorage' | 'sessionStorage'): Storage | undefined {
  try {
    return window[kind];
  } catch {
    return undefined;
  }
}
