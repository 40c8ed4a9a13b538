/** Shown when the server has no sign-in configured (its public config has no anon key). */
export const authUnavailableMessage =
  "Sign-in isn't available: this server has no accounts service configured yet.";
