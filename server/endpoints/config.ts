import type { PublicConfig } from '#contract/endpoints/config.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';

export function createConfigHandlers(deps: {
  publicConfig: () => PublicConfig;
}): ResourceHandlers<'config'> {
  return {
    'config/get-public-config': () => Promise.resolve(deps.publicConfig()),
  };
}
