/**
 * A code-split part of a screen: `fallback` until its module is in, then what `children` makes of
 * the module. The module arrives as state (use-loaded-module.ts says why this is not React.lazy),
 * so a part whose chunk is already loaded is drawn in its first render.
 */
import type { ReactNode } from 'react';
import { useLoadedModule } from './use-loaded-module.ts';

export function LoadedModule<Module>({
  load,
  fallback = null,
  children,
}: {
  /** The same function on every render (a module-level constant): it is the cache's key. */
  load: () => Promise<Module>;
  fallback?: ReactNode;
  children: (module: Module) => ReactNode;
}) {
  const loaded = useLoadedModule(load);
  return <>{loaded ? children(loaded) : fallback}</>;
}
