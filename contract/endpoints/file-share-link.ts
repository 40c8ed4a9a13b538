/**
 * Share links: a member hands one file to someone without an account. A link has an expiry, an
 * optional download cap and an optional password, can be revoked, and counts its downloads (each
 * one is a line in the project's activity). The recipient opens `/shared/<token>` in the app,
 * which asks `get-shared-file` what the link holds and `open-shared-file` for a short-lived signed
 * download link; that second call is the one that counts, checks the cap and the password.
 *
 * Links are server state, not synced data: a link only means something to a server that can
 * answer it, so making one needs the network (the dialog says so offline).
 */
import * as v from 'valibot';
import { defineEndpoint } from '../define-endpoint.ts';
import { idSchema } from '../entities/ids.ts';
import { text } from '../text.ts';

/** Thirty days: longer than a download link, as a hand-over can wait for a client's holiday. */
export const MAX_SHARE_LINK_MINUTES = 43_200;
export const DEFAULT_SHARE_LINK_MINUTES = 10_080;
export const MAX_SHARE_LINK_DOWNLOADS = 10_000;
export const MIN_SHARE_PASSWORD_CHARS = 4;
export const MAX_SHARE_PASSWORD_CHARS = 200;
/** How long the download link `open-shared-file` answers stays valid: enough to start a download. */
export const SHARED_DOWNLOAD_MINUTES = 5;

/** The path of the recipient's page; the token follows. */
export const SHARED_FILE_PATH = '/shared/';

/** 32 random bytes, base64url: the whole secret of a link. */
export const shareTokenSchema = v.pipe(
  text('The link is not valid'),
  v.regex(/^[A-Za-z0-9_-]{43}$/, 'The link is not valid'),
);

export const fileShareLinkSchema = v.object({
  id: text(),
  fileId: text(),
  projectId: text(),
  /** The page to send: `<publicUrl>/shared/<token>`. */
  url: text(),
  createdAt: text(),
  createdBy: text(),
  /** The creator's name as their profile says now ('' when the profile is gone). */
  createdByName: text(),
  expiresAt: text(),
  /** null: no cap. */
  maxDownloads: v.nullable(v.number()),
  downloadCount: v.number(),
  lastDownloadedAt: v.nullable(text()),
  hasPassword: v.boolean(),
  revokedAt: v.nullable(text()),
});
export type FileShareLink = v.InferOutput<typeof fileShareLinkSchema>;

export const createFileShareLinkInputSchema = v.strictObject({
  fileId: idSchema,
  expiryMinutes: v.optional(
    v.pipe(
      v.number('expiryMinutes is a number of minutes'),
      v.integer('expiryMinutes is a whole number of minutes'),
      v.minValue(1, 'expiryMinutes is at least 1'),
      v.maxValue(MAX_SHARE_LINK_MINUTES, 'A share link lasts at most 30 days'),
    ),
    DEFAULT_SHARE_LINK_MINUTES,
  ),
  maxDownloads: v.optional(
    v.nullable(
      v.pipe(
        v.number('maxDownloads is a number'),
        v.integer('maxDownloads is a whole number'),
        v.minValue(1, 'Allow at least 1 download'),
        v.maxValue(MAX_SHARE_LINK_DOWNLOADS, `At most ${MAX_SHARE_LINK_DOWNLOADS} downloads`),
      ),
    ),
    null,
  ),
  password: v.optional(
    v.nullable(
      v.pipe(
        text('The password must be text'),
        v.minLength(
          MIN_SHARE_PASSWORD_CHARS,
          `A link password is at least ${MIN_SHARE_PASSWORD_CHARS} characters`,
        ),
        v.maxLength(
          MAX_SHARE_PASSWORD_CHARS,
          `A link password is at most ${MAX_SHARE_PASSWORD_CHARS} characters`,
        ),
      ),
    ),
    null,
  ),
});

export const createFileShareLink = defineEndpoint({
  resource: 'file-share-link',
  operation: 'create-file-share-link',
  method: 'POST',
  auth: 'user',
  summary:
    'A share link for one file: expiry (1 minute to 30 days; 7 by default), optional download cap and password.',
  query: v.strictObject({}),
  body: createFileShareLinkInputSchema,
  output: v.object({ link: fileShareLinkSchema }),
  status: 201,
});

export const getFileShareLinks = defineEndpoint({
  resource: 'file-share-link',
  operation: 'get-file-share-links',
  method: 'GET',
  auth: 'user',
  summary: "A file's share links, newest first, revoked and expired ones included.",
  query: v.strictObject({ fileId: idSchema }),
  output: v.object({ links: v.array(fileShareLinkSchema) }),
});

export const revokeFileShareLink = defineEndpoint({
  resource: 'file-share-link',
  operation: 'revoke-file-share-link',
  method: 'POST',
  auth: 'user',
  summary: 'Turns a share link off for good; revoking a revoked link answers it unchanged.',
  query: v.strictObject({ id: idSchema }),
  output: v.object({ link: fileShareLinkSchema }),
});

export const sharedFileSchema = v.object({
  fileName: text(),
  size: v.number(),
  type: text(),
  expiresAt: text(),
  passwordRequired: v.boolean(),
  /** null: no cap. */
  downloadsLeft: v.nullable(v.number()),
  /** Who shared it: the workspace's name. */
  sharedBy: text(),
});
export type SharedFile = v.InferOutput<typeof sharedFileSchema>;

export const getSharedFile = defineEndpoint({
  resource: 'shared-file',
  operation: 'get-shared-file',
  method: 'GET',
  auth: 'public',
  summary:
    'What a share link holds (name, size, expiry, whether it asks for a password). An expired, revoked, used-up or unknown link is a 403 saying which.',
  query: v.strictObject({ token: shareTokenSchema }),
  output: sharedFileSchema,
});

export const openSharedFile = defineEndpoint({
  resource: 'shared-file',
  operation: 'open-shared-file',
  method: 'POST',
  auth: 'public',
  summary:
    'Counts one download of a share link and answers a signed download link valid for 5 minutes. A wrong password is a 401; attempts are rate limited.',
  query: v.strictObject({}),
  body: v.strictObject({
    token: shareTokenSchema,
    password: v.optional(
      v.pipe(
        text('The password must be text'),
        v.maxLength(MAX_SHARE_PASSWORD_CHARS, 'The password is too long'),
      ),
    ),
  }),
  output: v.object({ url: text(), expiresAt: text(), fileName: text() }),
});
