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

/**
 * The runtime config the app needs at boot (auth URL and key, Google, captcha), so one build
 * serves any deployment. The last good answer is kept: an installed app opened offline still
 * starts, with the session supabase-js kept in storage. Rejects only when there is neither.
 */
export async function loadPublicConfig(options: LoadPublicConfigOptions): Promise<PublicConfig> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const signal =
    typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(timeoutMs) : undefined;
  try {
    const config = await options.callEndpoint(
      getPublicConfig,
      { query: {} },
      signal ? { signal } : {},
    );
    try {
      options.storage?.setItem(publicConfigCacheKey, JSON.stringify(config));
    } catch {
      // Storage full or blocked: the app works, it just cannot start offline next time.
    }
    return config;
  } catch (error) {
    const cached = readCached(options.storage);
    if (cached) return cached;
    throw error;
  }
}
