/**
 * Files of a project (resource `file`): one row per name in a folder, with every uploaded version
 * of it. Bytes arrive only through a resumable upload (tus at /files/uploads, ARCHITECTURE.md
 * "Files"); the upload's last byte commits the blob and writes this row in one step, so there is
 * never a row without bytes. `create-file` is therefore refused: a device adds a file by
 * uploading it. A device may rename a file, move it to another folder and hide it from the
 * client portal (`update-file`), and delete it (`delete-file`: its bytes go after the row).
 *
 * Invariant: the row's size, type, checksum and blobName are those of its latest version, the
 * last entry of `versions`; older versions stay downloadable until the file is deleted.
 */
import * as v from 'valibot';
import { text } from '../text.ts';
import { defineSyncedEntity, field } from '../synced-entity.ts';

export const MAX_FILE_NAME_CHARS = 255;
export const MAX_FOLDER_CHARS = 500;

/** Default per-file maximum (FILE_MAX_BYTES on the server). */
export const DEFAULT_FILE_MAX_BYTES = 250 * 1024 * 1024;

/**
 * A file's name: one path segment a person would type. Slashes, backslashes and the names "." and
 * ".." are refused (never stripped): a name is shown and downloaded as given, and a name that
 * looks like a path must not be taken for one anywhere.
 */
export const fileNameSchema = v.pipe(
  text('The file name must be text'),
  v.trim(),
  v.nonEmpty('The file name is required'),
  v.maxLength(MAX_FILE_NAME_CHARS, `A file name is at most ${MAX_FILE_NAME_CHARS} characters`),
  v.check((name) => !/[/\\]/.test(name), 'A file name cannot contain / or \\'),
  v.check((name) => name !== '.' && name !== '..', 'A file name cannot be . or ..'),
);

/** A folder path like "Designs/Final" ('' is the project's top level); no empty or dot segments. */
export const folderSchema = v.pipe(
  text('The folder must be text'),
  v.trim(),
  v.maxLength(MAX_FOLDER_CHARS, `A folder path is at most ${MAX_FOLDER_CHARS} characters`),
  v.check((folder) => !folder.includes('\\'), 'A folder path uses / between folders, not \\'),
  v.check(
    (folder) =>
      folder === '' ||
      folder.split('/').every((part) => part.trim() !== '' && part !== '.' && part !== '..'),
    'A folder path is names separated by / (no empty, . or .. parts)',
  ),
);

/** A MIME type as a browser reports it ('' when it does not know). */
export const fileTypeSchema = v.pipe(
  text('The file type must be text'),
  v.maxLength(200, 'A file type is at most 200 characters'),
);

export const fileVersionSchema = v.object({
  /** 1 for the first upload of the name, then 2, 3... */
  number: v.number(),
  size: v.number(),
  type: text(),
  /** SHA-256 of the bytes, lower-case hex. */
  checksum: text(),
  /** The storage's name for the bytes (server-made, never from a request). */
  blobName: text(),
  uploadedBy: text(),
  uploadedAt: text(),
});
export type FileVersion = v.InferOutput<typeof fileVersionSchema>;

/** Set by the upload that commits a version; no operation of a device writes them. */
const fromUpload = { create: false, editable: false } as const;

export const fileEntity = defineSyncedEntity({
  name: 'file',
  plural: 'files',
  sqlTable: 'project_file',
  label: 'name',
  parent: { entity: 'project', key: 'projectId', onDelete: 'cascade' },
  activityProject: 'projectId',
  fields: {
    name: field(fileNameSchema),
    folder: field(folderSchema, { default: '' }),
    /** Shown to the client in the portal (all files are, until a member hides one). */
    visibleToClient: field(v.boolean(), { default: true, word: 'shown in the portal' }),
    size: field(v.number(), { ...fromUpload, default: 0, sql: 'bigint' }),
    type: field(fileTypeSchema, { ...fromUpload, default: '' }),
    checksum: field(text(), { ...fromUpload, default: '' }),
    blobName: field(text(), { ...fromUpload, default: '' }),
    uploadedBy: field(text(), { ...fromUpload, default: '', word: 'uploader' }),
    versions: field(v.array(fileVersionSchema), { ...fromUpload, default: [], sql: 'jsonb' }),
  },
  indexes: ['[workspaceId+projectId]'],
  list: { scope: 'parent', orderBy: 'folder, lower(name), id' },
  summaries: { create: 'Refused: a file is added by uploading it (tus at /files/uploads).' },
});

export type ProjectFile = v.InferOutput<typeof fileEntity.rowSchema>;
