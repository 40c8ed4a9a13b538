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

export const updateWorkspaceSettingsInputSchema = v.pipe(
  v.strictObject({
    name: v.optional(v.pipe(text(), v.trim(), v.nonEmpty('Name is required'), v.maxLength(120))),
    logoUrl: v.optional(
      v.nullable(
        v.pipe(
          text(),
          v.url('Must be a web address'),
          v.check((u) => /^https:\/\//i.test(u), 'Must start with https://'),
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
