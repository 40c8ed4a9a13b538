/**
 * Project operations: the derived CRUD of the declaration, plus the plan's limit on active
 * projects (a create, or an update that reopens or unarchives one, takes a place).
 */
import { projectEntity, type ProjectStatus } from '#contract/entities/project.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import { createEntityHandlers } from './entity-handlers.ts';
import { isActiveProject, requireActiveProjectRoom } from './plan-limits.ts';

export function createProjectHandlers(): ResourceHandlers<'project'> {
  return createEntityHandlers(projectEntity, {
    async beforeCreate({ tx, body }) {
      if (isActiveProject({ status: body.status as ProjectStatus, archived: false }))
        await requireActiveProjectRoom(tx, String(body.workspaceId), String(body.id));
    },
    async beforeUpdate({ tx, current, patch }) {
      const before = {
        status: current.status as ProjectStatus,
        archived: current.archived === true,
      };
      const after = {
        status: (patch.status ?? current.status) as ProjectStatus,
        archived: (patch.archived ?? current.archived) === true,
      };
      // Back to active (unarchived, reopened): it takes a place the plan may not have.
      if (!isActiveProject(before) && isActiveProject(after))
        await requireActiveProjectRoom(tx, String(current.workspaceId), String(current.id));
    },
  }) as unknown as ResourceHandlers<'project'>;
}
