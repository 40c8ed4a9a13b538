/**
 * Files beyond their CRUD (contract/entities/file.ts): expiring download links, a workspace's
 * storage use, and the upload protocol's names. Uploads themselves speak tus 1.0 at
 * UPLOAD_PATH, not this API (a tus client needs its own paths, headers and status codes).
 */
import * as v from 'valibot';
import { text } from '../text.ts';
import { defineEndpoint } from '../define-endpoint.ts';
import { fileNameSchema } from '../entities/file.ts';
import { idSchema } from '../entities/ids.ts';
import { planIdSchema } from '../entities/plan.ts';

/** Where tus uploads are created (POST) and continued (PATCH/HEAD/DELETE on the answered URL). */
export const UPLOAD_PATH = '/files/uploads';

/**
 * Upload-Metadata keys a new upload must carry (projectId, filename; filetype when known) and may
 * carry (fileId: the id the device gave the upload, answered back as the file's id when the
 * upload makes a new file; folder).
 */
export const uploadMetadataKeys = [
  'projectId',
  'filename',
  'filetype',
  'fileId',
  'folder',
] as const;

/** The header a finished upload answers with: the id of the file row it wrote. */
export const UPLOADED_FILE_ID_HEADER = 'Satchel-File-Id';

export const MIN_LINK_MINUTES = 1;
/** Seven days, Azure's longest sensible SAS and our longest local link. */
export const MAX_LINK_MINUTES = 10_080;
export const DEFAULT_LINK_MINUTES = 60;

const expiryMinutesSchema = v.optional(
  v.pipe(
    text(),
    v.regex(/^\d{1,6}$/, 'expiryMinutes is a whole number of minutes'),
    v.transform(Number),
    v.minValue(MIN_LINK_MINUTES, `expiryMinutes is at least ${MIN_LINK_MINUTES}`),
    v.maxValue(MAX_LINK_MINUTES, `expiryMinutes is at most ${MAX_LINK_MINUTES} (7 days)`),
  ),
  String(DEFAULT_LINK_MINUTES),
);

export const getDownloadUrl = defineEndpoint({
  resource: 'file',
  operation: 'get-download-url',
  method: 'GET',
  auth: 'user',
  summary:
    'A signed link to download a file (its latest version, or `version`), valid for expiryMinutes (1 to 10,080; 60 by default). `inline=true` opens images, PDF and plain text in the browser.',
  query: v.strictObject({
    id: idSchema,
    expiryMinutes: expiryMinutesSchema,
    downloadFileName: v.optional(fileNameSchema),
    version: v.optional(
      v.pipe(
        text(),
        v.regex(/^\d{1,6}$/, 'version is a version number'),
        v.transform(Number),
        v.minValue(1, 'version is a version number'),
      ),
    ),
    inline: v.optional(v.picklist(['true', 'false'], 'inline is true or false')),
  }),
  output: v.object({
    url: text(),
    expiresAt: text(),
    /** The name the browser saves the file under. */
    fileName: text(),
  }),
});

export const fileStorageSchema = v.object({
  workspaceId: text(),
  /** Bytes of every stored version of every file. */
  usedBytes: v.number(),
  /** The plan's storage allowance. */
  limitBytes: v.number(),
  plan: planIdSchema,
  /** Files (not versions) in the workspace. */
  fileCount: v.number(),
  /** The largest single upload this server takes. */
  maxFileBytes: v.number(),
});
export type FileStorage = v.InferOutput<typeof fileStorageSchema>;

export const getFileStorage = defineEndpoint({
  resource: 'file-storage',
  operation: 'get-file-storage',
  method: 'GET',
  auth: 'user',
  summary: "A workspace's file storage: bytes used, the plan's allowance, the per-file maximum.",
  query: v.strictObject({ workspaceId: idSchema }),
  output: fileStorageSchema,
});
