/**
 * The Content-Security-Policy directives, derived from configuration so the header allows exactly
 * the origins this deployment talks to and nothing more.
 */
type Sources = string[];

export interface ContentSecurityPolicyDirectives {
  defaultSrc: Sources;
  scriptSrc: Sources;
  styleSrc: Sources;
  imgSrc: Sources;
  fontSrc: Sources;
  connectSrc: Sources;
  workerSrc: Sources;
  manifestSrc: Sources;
  objectSrc: Sources;
  baseUri: Sources;
  formAction: Sources;
  frameAncestors: Sources;
  frameSrc: Sources;
}

export interface ContentSecurityPolicyConfig {
  /** SUPABASE_URL in hosted mode (the app's supabase-js talks to it); null when embedded. */
  hostedSupabaseUrl: string | null;
  /** A captcha site key is configured: the app loads hCaptcha's widget (script, frame, calls). */
  captcha?: boolean;
  /**
   * Where download links point when files are not on this server (Azure Blob Storage's origin):
   * the app fetches a file's bytes from there to keep it offline.
   */
  fileStorageOrigin?: string | null;
}

/** hCaptcha's documented CSP sources (docs.hcaptcha.com, "Content Security Policy"). */
const HCAPTCHA_SOURCES = ['https://hcaptcha.com', 'https://*.hcaptcha.com'];

export function contentSecurityPolicy(
  config: ContentSecurityPolicyConfig,
): ContentSecurityPolicyDirectives {
  const captcha = config.captcha ? HCAPTCHA_SOURCES : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...captcha],
    styleSrc: ["'self'", "'unsafe-inline'", ...captcha],
    // https: because avatars (Google's lh3.googleusercontent.com, any profile picture URL) and
    // workspace logos are URLs users choose; images cannot run script, so this stays safe.
    imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
    fontSrc: ["'self'"],
    // 'self' covers the API, /auth/v1 and the hub's same-origin WebSocket (CSP3 matches ws/wss
    // of the page's host). In hosted mode supabase-js also calls the project over https and
    // opens its Realtime socket over wss, so both forms of that one origin are allowed.
    connectSrc: [
      "'self'",
      ...hostedConnectSources(config.hostedSupabaseUrl),
      ...captcha,
      ...(config.fileStorageOrigin ? [config.fileStorageOrigin] : []),
    ],
    workerSrc: ["'self'", 'blob:'],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    frameSrc: ["'self'", ...captcha],
  };
}

function hostedConnectSources(supabaseUrl: string | null): string[] {
  if (!supabaseUrl) return [];
  const { origin } = new URL(supabaseUrl);
  // https://x -> wss://x; a local http:// project gets ws://.
  return [origin, origin.replace(/^http/, 'ws')];
}
