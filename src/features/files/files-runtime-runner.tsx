/** Starts this user's files runtime (use-files-runtime.tsx) and shows nothing: see resume-queued-uploads.tsx. */
import { useFilesRuntime } from './use-files-runtime.tsx';

export function FilesRuntimeRunner() {
  useFilesRuntime();
  return null;
}
