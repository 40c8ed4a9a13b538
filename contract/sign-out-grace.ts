/**
 * How long after its expiry an access token can still end its own session (POST
 * /auth/v1/logout?scope=local). A sign-out made offline keeps the token until the device is back
 * online (src/auth/server-sign-out.ts); an hour's lifetime would leave a flight's sign-out undone
 * on the server. Ending one's own session is the only thing such a token can do, so the grace
 * gives an old token no access: at worst it signs that one session out.
 */
export const SIGN_OUT_GRACE_SECONDS = 30 * 24 * 60 * 60;
