/**
 * A code-split part of a screen: `fallback` until its module is in, then what `children` makes of
 * the module. The module arrives as state (use-loaded-module.ts says why this is not React.lazy),
 * so a part whose chunk is already loaded is drawn in its first render. A failed load goes to the
 * nearest error boundary, or, with `failed`, is shown in place with a way to try again.
 */
import type { ReactNode } from 'react';
import { useModuleLoad } from './use-loaded-module.ts';

export function LoadedModule<Module>({
  load,
  fallback = null,
  failed,
  children,
}: {
  /** The same function on every render (a module-level constant): it is the cache's key. */
  load: () => Promise<Module>;
  fallback?: ReactNode;
  failed?: (retry: () => void) => ReactNode;
  children: (module: Module) => ReactNode;
}) {
  const state = useModuleLoad(load);
  if (state.status === 'failed') {
    if (!failed) throw state.error;
    return <>{failed(state.retry)}</>;
  }
  return <>{state.status === 'loaded' ? children(state.module) : fallback}</>;
}
