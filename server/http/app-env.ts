import type { Logger } from '../logger.ts';

/** Per-request values set by create-http-app.ts's first middleware. */
export interface AppEnv {
  Variables: {
    requestId: string;
    logger: Logger;
    clientIp: string;
  };
}
