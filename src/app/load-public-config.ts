import * as v from 'valibot';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import {
  getPublicConfig,
  publicConfigSchema,
  type PublicConfig,
} from '#contract/endpoints/config.ts';

import { publicConfigCacheKey } from './keep-public-config.ts';

export { publicConfigCacheKey };

export interface LoadPublicConfigOptions {
  callEndpoint: CallEndpoint;
  storage: Pick<Storage, 'getItem' | 'setItem'> | undefined;
  /** A server that does not answer in time counts as unreachable. */
  timeoutMs?: number;
  /**
   * Started from a kept config, the server's answer came back with other auth settings (URL or
   * key): this page runs on the old ones until it reloads. The new ones are kept already.
   */
  onAuthChanged?: () => void;
}

function readCached(storage: LoadPublicConfigOptions['storage']): PublicConfig | null {
  try {
    const raw = storage?.getItem(publicConfigCacheKey);
    if (!raw) return null;
    const parsed = v.safeParse(publicConfigSchema, JSON.parse(raw));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

function keep(storage: LoadPublicConfigOptions['storage'], config: PublicConfig): void {
  try {
    storage?.setItem(publicConfigCacheKey, JSON.stringify(config));
  } catch {
    // Storage full or blocked: the app works, it just cannot start offline next time.
  }
}

/**
 * The runtime config the app needs at boot (auth URL and key, Google, captcha), so one build
 * serves any deployment. Offline first: with a kept config the app starts from it at once and the
 * server's answer, asked for meanwhile, is kept for the next start (a round trip before the first
 * screen cost every new tab its slowest step, online or not). Without one it waits for the server.
 * Rejects only when there is neither.
 */
export async function loadPublicConfig(options: LoadPublicConfigOptions): Promise<PublicConfig> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const signal =
    typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(timeoutMs) : undefined;
  const cached = readCached(options.storage);
  const fresh = options
    .callEndpoint(getPublicConfig, { query: {} }, signal ? { signal } : {})
    .then((config) => {
      keep(options.storage, config);
      return config;
    });
  if (!cached) return fresh;
  fresh.then(
    (config) => {
      if (
        config.supabaseUrl !== cached.supabaseUrl ||
        config.supabaseAnonKey !== cached.supabaseAnonKey
      ) {
        options.onAuthChanged?.();
      }
    },
    // Offline or a server in trouble: the kept config serves, as it would have anyway.
    () => undefined,
  );
  return cached;
}
