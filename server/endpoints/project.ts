/**
 * Project rules beside the derived CRUD (synced-entity-handlers.ts): the plan's limit on active
 * projects (a create, or an update that reopens or unarchives one, takes a place).
 */
import type { ProjectStatus } from '#contract/entities/project.ts';
import type { EntityHooks } from './entity-handlers.ts';
import { isActiveProject, requireActiveProjectRoom } from './plan-limits.ts';

export const projectHooks: EntityHooks = {
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
};
