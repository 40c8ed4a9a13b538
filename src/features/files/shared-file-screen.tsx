/**
 * What someone holding a share link sees at /shared/<token>: the file's name, size and who shared
 * it, a password field when the link has one, and Download. Download asks the server for a
 * short-lived signed link (which counts the download) and lets the browser save it; a link that no
 * longer works says why in the server's words.
 */
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import {
  getSharedFile,
  openSharedFile,
  type SharedFile,
} from '#contract/endpoints/file-share-link.ts';
import { Download, FileX2 } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../ui/button.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { readSubmitFailure } from '../marketing/form-errors.ts';
import { fileIconOf, formatBytes, formatFileDateTime } from './file-format.ts';

type Load =
  | { state: 'loading' }
  | { state: 'ready'; file: SharedFile }
  | { state: 'dead'; message: string; offline: boolean };

export function SharedFileScreen({
  token,
  callEndpoint,
  startDownload = (url) => window.location.assign(url),
}: {
  token: string;
  callEndpoint: CallEndpoint;
  /** Hands the signed link to the browser; a test records it instead. */
  startDownload?: (url: string) => void;
}) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [opening, setOpening] = useState(false);
  const [started, setStarted] = useState<{ url: string; fileName: string } | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  usePageTitle(load.state === 'ready' ? load.file.fileName : 'Shared file');

  const fetchFile = async () => {
    setLoad({ state: 'loading' });
    try {
      const file = await callEndpoint(getSharedFile, { query: { token } });
      setLoad({ state: 'ready', file });
    } catch (error) {
      const failure = readSubmitFailure(error);
      const status = (error as { status?: unknown }).status;
      setLoad({ state: 'dead', message: failure.message, offline: status === 0 });
    }
  };

  useEffect(() => {
    void fetchFile();
    // The token is the page's identity; a new token is a new page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  // The heading changes with what the page learns: keep the reader on it.
  useEffect(() => {
    if (load.state !== 'loading') headingRef.current?.focus();
  }, [load.state]);

  const download = async (event: FormEvent) => {
    event.preventDefault();
    if (load.state !== 'ready') return;
    if (load.file.passwordRequired && password === '') {
      setPasswordError('Enter the password you were given with the link');
      return;
    }
    setOpening(true);
    setFormError(null);
    try {
      const opened = await callEndpoint(openSharedFile, {
        query: {},
        body: { token, ...(load.file.passwordRequired ? { password } : {}) },
      });
      setStarted({ url: opened.url, fileName: opened.fileName });
      setLoad((current) =>
        current.state === 'ready' && current.file.downloadsLeft !== null
          ? {
              ...current,
              file: { ...current.file, downloadsLeft: current.file.downloadsLeft - 1 },
            }
          : current,
      );
      startDownload(opened.url);
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      const failure = readSubmitFailure(error);
      if (status === 401) setPasswordError(failure.message);
      else if (status === 403) setLoad({ state: 'dead', message: failure.message, offline: false });
      else setFormError(failure.message);
    } finally {
      setOpening(false);
    }
  };

  if (load.state === 'loading') {
    return (
      <p className="flex items-center justify-center gap-2 py-16 text-fg-muted">
        <Spinner /> Opening the link…
      </p>
    );
  }

  if (load.state === 'dead') {
    return (
      <div className="mx-auto flex max-w-lg flex-col items-center gap-4 py-10 text-center">
        <FileX2 aria-hidden="true" size={40} className="text-fg-muted" />
        <h1
          ref={headingRef}
          tabIndex={-1}
          className="text-2xl font-bold tracking-tight text-fg outline-none"
        >
          {load.offline ? 'You’re offline' : 'This link doesn’t work'}
        </h1>
        <p className="text-fg-muted">{load.message}</p>
        {load.offline ? (
          <Button variant="secondary" onPress={() => void fetchFile()}>
            Try again
          </Button>
        ) : (
          <p className="text-sm text-fg-muted">
            Ask the person who shared it with you for a new link.
          </p>
        )}
      </div>
    );
  }

  const { file } = load;
  const Icon = fileIconOf(file.type, file.fileName);
  return (
    <div className="mx-auto flex max-w-lg flex-col gap-6">
      <div className="flex items-start gap-4">
        <span className="grid size-14 shrink-0 place-items-center rounded-xl bg-surface-muted text-fg-muted">
          <Icon aria-hidden="true" size={28} />
        </span>
        <div className="min-w-0">
          <p className="text-sm text-fg-muted">{file.sharedBy} shared a file with you</p>
          <h1
            ref={headingRef}
            tabIndex={-1}
            className="text-2xl font-bold tracking-tight break-words text-fg outline-none"
          >
            {file.fileName}
          </h1>
          <p className="mt-1 text-sm text-fg-muted">
            {formatBytes(file.size)} · link expires {formatFileDateTime(file.expiresAt)}
            {file.downloadsLeft === null
              ? ''
              : ` · ${file.downloadsLeft} download${file.downloadsLeft === 1 ? '' : 's'} left`}
          </p>
        </div>
      </div>
      <form
        onSubmit={(event) => void download(event)}
        noValidate
        className="flex flex-col gap-4 rounded-2xl border border-border bg-surface p-5"
      >
        {file.passwordRequired ? (
          <FormTextField
            label="Password"
            name="password"
            type="password"
            autoComplete="off"
            description="This link is protected: the person who shared it gave you the password."
            value={password}
            onChange={(value) => {
              setPassword(value);
              setPasswordError(undefined);
            }}
            error={passwordError}
            autoFocus
          />
        ) : null}
        {formError ? (
          <p role="alert" className="text-sm text-danger">
            {formError}
          </p>
        ) : null}
        <Button type="submit" size="large" isPending={opening}>
          <Download aria-hidden="true" size={18} />
          Download
        </Button>
        <div role="status" className="text-sm text-fg-muted empty:hidden">
          {started ? (
            <>
              Your download of “{started.fileName}” has started. Nothing happened?{' '}
              <a href={started.url} className="font-medium text-brand underline">
                Download it here
              </a>{' '}
              (this link works for 5 minutes).
            </>
          ) : null}
        </div>
      </form>
    </div>
  );
}
