/**
 * A project's activity, newest first, in pages. Readable by members of the project's workspace;
 * a project the caller cannot see answers like a missing one.
 */
import { PROJECT_ACTIVITY_PAGE, type ActivityEntry } from '#contract/endpoints/project-activity.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import { requireProjectMember } from './workspace-access.ts';

const NO_SUCH_PROJECT = 'No such project.';

interface ActivityRow {
  seq: string;
  at: Date;
  actor_id: string;
  actor_name: string | null;
  actor_kind: ActivityEntry['actorKind'];
  entity: ActivityEntry['kind'];
  entity_id: string;
  label: string;
  op: ActivityEntry['op'];
  changes: ActivityEntry['changes'];
}

export function createProjectActivityHandlers(): ResourceHandlers<'project-activity'> {
  return {
    'project-activity/get-project-activity': async ({ query, identity, tx }) => {
      const { workspaceId } = await requireProjectMember(
        tx,
        query.projectId,
        identity.userId,
        NO_SUCH_PROJECT,
      );
      const { rows } = await tx.query<ActivityRow>(
        `SELECT a.seq, a.at, a.actor_id,
                coalesce(a.actor_name, trim(p.first_name || ' ' || p.last_name)) AS actor_name,
                CASE WHEN a.actor_name IS NULL THEN 'member' ELSE 'client' END AS actor_kind,
                a.entity, a.entity_id, a.label, a.op, a.changes
         FROM project_activity a LEFT JOIN user_profile p ON p.id = a.actor_id
         WHERE a.workspace_id = $1 AND a.project_id = $2
           AND ($3::bigint IS NULL OR a.seq < $3) AND ($4::text IS NULL OR a.entity = $4)
         ORDER BY a.seq DESC LIMIT $5`,
        [
          workspaceId,
          query.projectId,
          query.before ?? null,
          query.kind ?? null,
          PROJECT_ACTIVITY_PAGE + 1,
        ],
      );
      const page = rows.slice(0, PROJECT_ACTIVITY_PAGE);
      return {
        activity: page.map((row) => ({
          seq: Number(row.seq),
          at: row.at.toISOString(),
          actorId: row.actor_id,
          actorName: row.actor_name ?? '',
          actorKind: row.actor_kind,
          kind: row.entity,
          entityId: row.entity_id,
          label: row.label,
          op: row.op,
          changes: row.changes,
        })),
        nextBefore: rows.length > PROJECT_ACTIVITY_PAGE ? Number(page.at(-1)?.seq) : null,
      };
    },
  };
}
