/** Where app code reports what it cannot show the user. Never pass secrets (tokens, TOTP secrets). */
export interface AuthLog {
  warn(message: string, details?: unknown): void;
  error(message: string, details?: unknown): void;
}

export interface AuthLogOptions {
  /** Defaults to the browser console. */
  sink?: Pick<Console, 'warn' | 'error'>;
  /** Tests and embedders can turn the output off. */
  silent?: boolean;
}

/** A console logger with a prefix, so app messages stand apart from library noise. */
export function createAuthLog(options: AuthLogOptions = {}): AuthLog {
  // The one place app code writes to the console (lint forbids console.* elsewhere): failures
  // that have no screen to show them on (spec 8: "logged").
  const sink = options.sink ?? console;
  const silent = options.silent ?? false;
  const write = (level: 'warn' | 'error', message: string, details: unknown) => {
    if (silent) return;
    if (details === undefined) sink[level](`[satchel] ${message}`);
    else sink[level](`[satchel] ${message}`, details);
  };
  return {
    warn: (message, details) => write('warn', message, details),
    error: (message, details) => write('error', message, details),
  };
}
