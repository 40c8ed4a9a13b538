/**
 * A project's way into the change request center: a link to /change-requests filtered to the
 * project, saying how many requests wait on a member. With none open it lists all of the
 * project's requests, so the link never lands on an empty list when there are some.
 */
import { useProjectChangeRequestCount } from '../../data/change-request-queries.ts';
import { TextLink } from '../../ui/text-link.tsx';
import { useSync } from '../workspace/sync-context.tsx';

export function ProjectChangeRequestsLink({
  project,
}: {
  project: { id: string; workspaceId: string };
}) {
  const { handle } = useSync();
  const count = useProjectChangeRequestCount(handle.db, project.workspaceId, project.id);
  if (count === undefined) return null;
  const search = new URLSearchParams({ projectId: project.id });
  if (count.open === 0 && count.total > 0) search.set('status', 'all');
  return (
    <TextLink href={`/change-requests?${search.toString()}`}>
      {count.open > 0 ? `Change requests: ${count.open} open` : 'Change requests'}
    </TextLink>
  );
}
