/** All operation handlers; the type makes a missing or extra handler a compile error. */
import type { PublicConfig } from '#contract/endpoints/config.ts';
import type { EndpointHandlers } from '../http/endpoint-handler.ts';
import type { Mailer } from '../mail/mailer.ts';
import { createConfigHandlers } from './config.ts';
import { createContactHandlers } from './contact.ts';
import { createFeedbackHandlers } from './feedback.ts';
import { createRegisterHandlers } from './register.ts';
import { createSystemHandlers } from './system.ts';
import { createUserHandlers } from './user.ts';
import { createWorkspaceHandlers } from './workspace.ts';

export interface EndpointHandlerDeps {
  version: string;
  mailer: Mailer;
  contactEmail: string;
  publicConfig: () => PublicConfig;
}

export function createEndpointHandlers(deps: EndpointHandlerDeps): EndpointHandlers {
  return {
    ...createConfigHandlers(deps),
    ...createContactHandlers(deps),
    ...createFeedbackHandlers(),
    ...createSystemHandlers(deps),
    ...createUserHandlers(),
    ...createRegisterHandlers(),
    ...createWorkspaceHandlers(),
  };
}
