import * as v from 'valibot';
import { jsonValue, text } from '../text.ts';

export const workspaceRoles = ['owner', 'admin', 'member'] as const;
export type WorkspaceRole = (typeof workspaceRoles)[number];

export const workspaceSchema = v.object({
  id: text(),
  name: text(),
  logoUrl: v.nullable(text()),
  brandColor: v.nullable(text()),
  currency: text(),
  timeZone: text(),
  locale: text(),
  portalWelcomeText: v.nullable(text()),
  settings: v.record(text(), v.unknown()),
  createdAt: text(),
  updatedAt: text(),
});
export type Workspace = v.InferOutput<typeof workspaceSchema>;

export const workspaceMemberSchema = v.object({
  id: text(),
  email: text(),
  firstName: text(),
  lastName: text(),
  profilePictureUrl: v.nullable(text()),
  role: v.picklist(workspaceRoles),
  joinedAt: text(),
});
export type WorkspaceMember = v.InferOutput<typeof workspaceMemberSchema>;

const isTimeZone = (value: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
};
const isLocale = (value: string) => {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
};

/**
 * The workspace's logo (`logoUrl`): an https:// address, or the image itself as a `data:` URL of a
 * PNG or JPEG of at most MAX_LOGO_BYTES. Only the inline image reaches the invoice PDF
 * (`embeddableLogo` in invoice-document.ts): the server never fetches an address it is given
 * (SSRF), so Settings stores logos inline. Checked here, so the app refuses what the server would.
 */
export const MAX_LOGO_BYTES = 256 * 1024;
const MAX_LOGO_KIB = MAX_LOGO_BYTES / 1024;
export const logoImageTypes = ['image/png', 'image/jpeg'] as const;
export type LogoImageType = (typeof logoImageTypes)[number];
/** The longest `logoUrl`: the longest media type's prefix and the base64 of MAX_LOGO_BYTES. */
export const MAX_LOGO_URL_LENGTH =
  'data:image/jpeg;base64,'.length + Math.ceil(MAX_LOGO_BYTES / 3) * 4;

const DATA_LOGO = /^data:(image\/png|image\/jpeg);base64,([A-Za-z0-9+/]*={0,2})$/;
/** The first bytes of every PNG and of every JPEG. */
const MAGIC: Record<LogoImageType, readonly number[]> = {
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'image/jpeg': [0xff, 0xd8, 0xff],
};

/** Why a `data:` URL is not a logo a workspace may keep; null when it is one. */
export function logoDataUrlProblem(value: string): string | null {
  if (value.length > MAX_LOGO_URL_LENGTH) return `A logo is at most ${MAX_LOGO_KIB} KiB`;
  const match = DATA_LOGO.exec(value);
  if (!match) {
    return /^data:image\/(png|jpeg);base64,/.test(value)
      ? 'The logo’s image data is not valid base64'
      : 'A logo is a PNG or JPEG image';
  }
  const type = match[1] as LogoImageType;
  const data = match[2] ?? '';
  if (data.length === 0 || data.length % 4 !== 0)
    return 'The logo’s image data is not valid base64';
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  if ((data.length / 4) * 3 - padding > MAX_LOGO_BYTES) {
    return `A logo is at most ${MAX_LOGO_KIB} KiB`;
  }
  const head = atob(data.slice(0, 12));
  const isType = MAGIC[type].every((byte, index) => head.charCodeAt(index) === byte);
  return isType ? null : `The logo’s data is not a ${type === 'image/png' ? 'PNG' : 'JPEG'} image`;
}

/** Why a value is not a workspace logo (an https:// address or an inline PNG or JPEG); or null. */
export function logoUrlProblem(value: string): string | null {
  if (/^data:/i.test(value)) return logoDataUrlProblem(value);
  if (!/^https:\/\//i.test(value)) return 'A logo is an https:// address or a PNG or JPEG image';
  try {
    new URL(value);
    return null;
  } catch {
    return 'Must be a web address';
  }
}

export const updateWorkspaceSettingsInputSchema = v.pipe(
  v.strictObject({
    name: v.optional(v.pipe(text(), v.trim(), v.nonEmpty('Name is required'), v.maxLength(120))),
    logoUrl: v.optional(
      v.nullable(
        v.pipe(
          text(),
          v.maxLength(MAX_LOGO_URL_LENGTH, `A logo is at most ${MAX_LOGO_KIB} KiB`),
          v.rawCheck(({ dataset, addIssue }) => {
            const problem = dataset.typed ? logoUrlProblem(dataset.value) : null;
            if (problem) addIssue({ message: problem });
          }),
        ),
      ),
    ),
    brandColor: v.optional(
      v.nullable(v.pipe(text(), v.regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour like #A0522D'))),
    ),
    currency: v.optional(
      v.pipe(text(), v.regex(/^[A-Z]{3}$/, 'Use a 3-letter currency code like EUR')),
    ),
    timeZone: v.optional(v.pipe(text(), v.check(isTimeZone, 'Unknown time zone'))),
    locale: v.optional(v.pipe(text(), v.check(isLocale, 'Unknown locale'))),
    portalWelcomeText: v.optional(v.nullable(v.pipe(text(), v.maxLength(2000)))),
    settings: v.optional(
      v.pipe(
        v.record(text(), jsonValue()),
        v.check((s) => JSON.stringify(s).length <= 16_384, 'Settings must be at most 16 KB'),
        // Printed on every invoice (contract/entities/invoice-document.ts): text, kept short.
        v.check(
          (s) =>
            s.businessAddress === undefined ||
            (typeof s.businessAddress === 'string' && s.businessAddress.length <= 1000),
          'The business address is text of at most 1,000 characters',
        ),
      ),
    ),
  }),
  v.check((patch) => Object.keys(patch).length > 0, 'Change at least one field'),
);
export type UpdateWorkspaceSettingsInput = v.InferOutput<typeof updateWorkspaceSettingsInputSchema>;
