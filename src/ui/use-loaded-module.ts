/**
 * A code-split module as state: `undefined` until `load` resolves, then the module, at once on
 * every later render and mount (a resolved load is remembered per loader).
 *
 * Why not `React.lazy` and `<Suspense>`: React 19 holds back the commit of a Suspense boundary's
 * content until 300 ms after the last fallback it showed anywhere (its fallback throttle), even
 * when the content is ready a few milliseconds later. A lazy tab always suspends on its first
 * render, even with its chunk already loaded, so a project opened in a new tab on its Chat tab
 * sat idle for about 250 ms with the messages read and rendered (trace in BENCHMARKS.md, Chat).
 * Here the module arrives as an ordinary state update, which React commits when it is rendered.
 *
 * `useLoadedModule` throws a failed load during render, so the nearest error boundary shows it, as
 * a lazy component's would. `useModuleLoad` hands it back with a retry instead, for a part that
 * can say what failed in place (a chunk kept out of the offline copy, opened offline).
 */
import { useEffect, useState } from 'react';

const loaded = new WeakMap<() => Promise<unknown>, unknown>();

export type ModuleLoad<Module> =
  | { status: 'loading' }
  | { status: 'loaded'; module: Module }
  | { status: 'failed'; error: unknown; retry: () => void };

export function useModuleLoad<Module>(load: () => Promise<Module>): ModuleLoad<Module> {
  const [state, setState] = useState<{ module: Module } | { error: unknown } | null>(() =>
    loaded.has(load) ? { module: loaded.get(load) as Module } : null,
  );
  useEffect(() => {
    if (state) return;
    let live = true;
    load().then(
      (module) => {
        loaded.set(load, module);
        if (live) setState({ module });
      },
      (error: unknown) => {
        if (live) setState({ error });
      },
    );
    return () => {
      live = false;
    };
  }, [load, state]);
  if (!state) return { status: 'loading' };
  if ('error' in state)
    return { status: 'failed', error: state.error, retry: () => setState(null) };
  return { status: 'loaded', module: state.module };
}

export function useLoadedModule<Module>(load: () => Promise<Module>): Module | undefined {
  const state = useModuleLoad(load);
  if (state.status === 'failed') throw state.error;
  return state.status === 'loaded' ? state.module : undefined;
}
