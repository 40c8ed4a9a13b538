import * as v from 'valibot';

export const workspaceRoles = ['owner', 'admin', 'member'] as const;
export type WorkspaceRole = (typeof workspaceRoles)[number];

export const workspaceSchema = v.object({
  id: v.string(),
  name: v.string(),
  logoUrl: v.nullable(v.string()),
  brandColor: v.nullable(v.string()),
  currency: v.string(),
  timeZone: v.string(),
  locale: v.string(),
  portalWelcomeText: v.nullable(v.string()),
  settings: v.record(v.string(), v.unknown()),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type Workspace = v.InferOutput<typeof workspaceSchema>;

export const workspaceMemberSchema = v.object({
  id: v.string(),
  email: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  profilePictureUrl: v.nullable(v.string()),
  role: v.picklist(workspaceRoles),
  joinedAt: v.string(),
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
    name: v.optional(
      v.pipe(v.string(), v.trim(), v.nonEmpty('Name is required'), v.maxLength(120)),
    ),
    logoUrl: v.optional(
      v.nullable(
        v.pipe(
          v.string(),
          v.url('Must be a web address'),
          v.check((u) => /^https:\/\//i.test(u), 'Must start with https://'),
        ),
      ),
    ),
    brandColor: v.optional(
      v.nullable(v.pipe(v.string(), v.regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour like #A0522D'))),
    ),
    currency: v.optional(
      v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, 'Use a 3-letter currency code like EUR')),
    ),
    timeZone: v.optional(v.pipe(v.string(), v.check(isTimeZone, 'Unknown time zone'))),
    locale: v.optional(v.pipe(v.string(), v.check(isLocale, 'Unknown locale'))),
    portalWelcomeText: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(2000)))),
    settings: v.optional(
      v.pipe(
        v.record(v.string(), v.unknown()),
        v.check((s) => JSON.stringify(s).length <= 16_384, 'Settings must be at most 16 KB'),
      ),
    ),
  }),
  v.check((patch) => Object.keys(patch).length > 0, 'Change at least one field'),
);
export type UpdateWorkspaceSettingsInput = v.InferOutput<typeof updateWorkspaceSettingsInputSchema>;
