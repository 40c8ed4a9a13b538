/** Client operations: the derived CRUD of the declaration, with no rule of their own. */
import { clientEntity } from '#contract/entities/client.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import { createEntityHandlers } from './entity-handlers.ts';

export function createClientHandlers(): ResourceHandlers<'client'> {
  return createEntityHandlers(clientEntity) as unknown as ResourceHandlers<'client'>;
}
