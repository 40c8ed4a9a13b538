/**
 * A file the client attaches to a change request, sent with tus to PORTAL_UPLOAD_PATH on the
 * portal cookie (the same resumable protocol as the members' uploads, without their on-device
 * queue: an attachment is uploaded while the form is open, and needs a connection).
 *
 * The screen takes an uploader as a prop, so the public demo plays one in the page and tests
 * pass their own; `uploadWithTus` is the real one.
 */
import type { Upload } from 'tus-js-client';
import { PORTAL_UPLOAD_PATH } from '#contract/endpoints/client-portal.ts';
import { UPLOADED_FILE_ID_HEADER } from '#contract/endpoints/file.ts';
import {
  blobFileReader,
  isRetryableStatus,
  refusalMessage,
  statusOf,
} from '../../files/tus-transport.ts';

export interface PortalUpload {
  /** The new file's id once the last byte is in; rejects with a PortalUploadError. */
  readonly done: Promise<string>;
  /** Stops sending (the server expires what it staged). */
  abort(): void;
}

export type PortalUploadFile = (
  file: File,
  options: { projectId: string; onProgress: (sent: number, total: number) => void },
) => PortalUpload;

/** Why an attachment did not arrive, in words for the client. */
export class PortalUploadError extends Error {
  /** The HTTP status, 0 when no answer arrived. */
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'PortalUploadError';
    this.status = status;
  }
}

export const uploadWithTus: PortalUploadFile = (file, { projectId, onProgress }) => {
  const running: { upload: Upload | null } = { upload: null };
  let aborted = false;
  const done = new Promise<string>((resolve, reject) => {
    // Loaded when the client first attaches a file: the portal's first paint does not wait for it.
    void import('tus-js-client').then(({ Upload }) => {
      if (aborted) {
        reject(new PortalUploadError('The upload was stopped.', 0));
        return;
      }
      const upload = new Upload(file, {
        endpoint: new URL(PORTAL_UPLOAD_PATH, globalThis.location.href).href,
        metadata: { projectId, filename: file.name, filetype: file.type },
        fileReader: blobFileReader,
        // A phone losing signal for a moment resumes where it stopped.
        retryDelays: [0, 1000, 3000, 5000],
        onShouldRetry: (error) => isRetryableStatus(statusOf(error)) && navigator.onLine,
        storeFingerprintForResuming: false,
        onProgress,
        onSuccess: ({ lastResponse }) => {
          const fileId = lastResponse.getHeader(UPLOADED_FILE_ID_HEADER);
          if (fileId) resolve(fileId);
          else reject(new PortalUploadError('The server did not say which file it stored.', 500));
        },
        onError: (error) => {
          const status = statusOf(error);
          reject(
            new PortalUploadError(
              status === 0 ? 'The connection was lost. Try again.' : refusalMessage(error),
              status,
            ),
          );
        },
      });
      running.upload = upload;
      upload.start();
    }, reject);
  });
  return {
    done,
    abort: () => {
      aborted = true;
      void running.upload?.abort(true).catch(() => undefined);
    },
  };
};
