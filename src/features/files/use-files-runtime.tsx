/**
 * The files machinery for the screens (src/files/files-runtime.ts): the app's network edges by
 * default (the API client from the router context for download links, the session's access
 * token for tus uploads, the browser's fetch), or a test's fakes from FilesApiProvider.
 */
import { getDownloadUrl } from '#contract/endpoints/file.ts';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { useAuthServices } from '../../auth/auth-services.tsx';
import type { GetDownloadLink } from '../../files/file-access.ts';
import type { KeepingState } from '../../files/file-copies.ts';
import { filesRuntimeFor, type FilesApi, type FilesRuntime } from '../../files/files-runtime.ts';
import type { UploadProgress } from '../../files/upload-progress.ts';
import { useCallEndpoint } from '../activity/activity-timeline.tsx';
import { useSync } from '../workspace/sync-context.tsx';

const FilesApiContext = createContext<FilesApi | null>(null);

export function FilesApiProvider({ api, children }: { api: FilesApi; children: ReactNode }) {
  return <FilesApiContext value={api}>{children}</FilesApiContext>;
}

export function linksThrough(callEndpoint: CallEndpoint): GetDownloadLink {
  return ({ id, version, inline }) =>
    callEndpoint(getDownloadUrl, {
      query: {
        id,
        ...(version === undefined ? {} : { version: String(version) }),
        ...(inline ? { inline: 'true' } : {}),
      },
    });
}

/** The app's FilesApi, built from what the app already has. */
function useDefaultFilesApi(): FilesApi {
  const callEndpoint = useCallEndpoint();
  const auth = useAuthServices();
  return useMemo(
    () => ({
      getAccessToken: async () => {
        if (!auth) return null;
        // supabase-js refreshes a token near its expiry before answering.
        const { data } = await auth.client.getSession();
        return data.session?.access_token ?? null;
      },
      getDownloadLink: callEndpoint ? linksThrough(callEndpoint) : null,
      fetch: (input, init) => globalThis.fetch(input, init),
    }),
    [callEndpoint, auth],
  );
}

/** This user's files runtime (started on first use; it keeps running across screens). */
export function useFilesRuntime(): FilesRuntime {
  const { handle } = useSync();
  const provided = useContext(FilesApiContext);
  const fallback = useDefaultFilesApi();
  const api = provided ?? fallback;
  const runtime = filesRuntimeFor(handle.db, api);
  // Queued uploads go on once a screen using files opens (after a reload, the shell's
  // ResumeQueuedUploads starts this on any screen when the queue holds one).
  useEffect(() => runtime.runner.kick(), [runtime]);
  return runtime;
}

/** Whether the browser says it is online, live. */
export function useOnline(runtime: FilesRuntime): boolean {
  const { network } = runtime;
  return useSyncExternalStore(network.subscribe, network.isOnline, () => true);
}

/** Progress of the uploads (in-memory, also from other tabs), re-rendering on each change. */
export function useUploadProgress(
  runtime: FilesRuntime,
): (id: string) => UploadProgress | undefined {
  const { progress } = runtime;
  const version = useSyncExternalStore(
    progress.subscribe,
    progress.getVersion,
    progress.getVersion,
  );
  // A new function per version, so memoised children re-render with the new numbers.
  return useCallback((id: string) => progress.get(id), [progress, version]); // eslint-disable-line react-hooks/exhaustive-deps
}

export function useKeeping(runtime: FilesRuntime): KeepingState {
  const { keeper } = runtime;
  return useSyncExternalStore(keeper.subscribe, keeper.getState, keeper.getState);
}
