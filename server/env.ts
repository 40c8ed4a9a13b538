/**
 * The only reader of process.env. Parsed once at start with valibot; a bad value stops the
 * process with a message naming the variable, before anything listens or opens the database.
 */
import * as v from 'valibot';

const portSchema = v.pipe(
  v.string(),
  v.regex(/^\d+$/, 'must be a whole number'),
  v.transform(Number),
  v.minValue(0, 'must be 0-65535'),
  v.maxValue(65535, 'must be 0-65535'),
);

const urlSchema = (protocols: string[]) =>
  v.pipe(
    v.string(),
    v.url('must be a URL'),
    v.check(
      (value) => protocols.includes(new URL(value).protocol),
      `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    ),
  );

const envSchema = v.object({
  PORT: v.optional(portSchema, '8080'),
  HOST: v.optional(v.pipe(v.string(), v.minLength(1)), '0.0.0.0'),
  DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1)), './data'),
  STATIC_DIR: v.optional(v.pipe(v.string(), v.minLength(1))),
  DATABASE_URL: v.optional(urlSchema(['postgres:', 'postgresql:'])),
  PUBLIC_URL: v.optional(
    v.pipe(
      urlSchema(['http:', 'https:']),
      v.transform((u) => u.replace(/\/+$/, '')),
    ),
  ),
  CONTACT_EMAIL: v.optional(
    v.pipe(v.string(), v.email('must be an email address')),
    'hello@satchel.local',
  ),
  MAIL_FROM: v.optional(v.pipe(v.string(), v.minLength(3)), 'Satchel <no-reply@satchel.local>'),
  LOG_LEVEL: v.optional(
    v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    'info',
  ),
});

export interface Env {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** The built PWA to serve; undefined means `dist/` of this checkout. */
  staticDir: string | undefined;
  /** Origin the app is reached at; defaults to http://localhost:<port>. */
  publicUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Where contact-form messages are mailed. */
  contactEmail: string;
  mailFrom: string;
}

export class EnvError extends Error {}

/** Parses an environment; empty strings count as unset so `FOO= npm start` means the default. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const present = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = v.safeParse(envSchema, present);
  if (!result.success) {
    const lines = result.issues.map((issue) => {
      const key = issue.path?.map((p) => String(p.key)).join('.') ?? '(environment)';
      return `  ${key}: ${issue.message} (got ${JSON.stringify(issue.input)})`;
    });
    throw new EnvError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const out = result.output;
  return {
    port: out.PORT,
    host: out.HOST,
    dataDir: out.DATA_DIR,
    databaseUrl: out.DATABASE_URL,
    staticDir: out.STATIC_DIR,
    publicUrl: out.PUBLIC_URL ?? `http://localhost:${out.PORT}`,
    logLevel: out.LOG_LEVEL,
    contactEmail: out.CONTACT_EMAIL,
    mailFrom: out.MAIL_FROM,
  };
}

export function readEnv(): Env {
  return parseEnv(process.env);
}
