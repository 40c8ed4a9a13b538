import { useMemo } from 'react';
import { useLiveQuery } from '../../db/live-query.ts';
import { useSync } from '../workspace/sync-context.tsx';

/**
 * "Ana Lima", "you", or "a teammate" for an uploader's user id; a file the client uploaded in the
 * portal names the client ("Acme Bakery (client)").
 */
export function useMemberNames(workspaceId: string): (userId: string) => string {
  const { handle, userId: me } = useSync();
  const members = useLiveQuery(
    () => handle.db.members.where('workspaceId').equals(workspaceId).toArray(),
    [handle, workspaceId],
  );
  const clients = useLiveQuery(
    () => handle.db.clients.where('workspaceId').equals(workspaceId).toArray(),
    [handle, workspaceId],
  );
  return useMemo(() => {
    const names = new Map(
      (members ?? []).map((member) => [
        member.id,
        `${member.firstName} ${member.lastName}`.trim() || member.email,
      ]),
    );
    for (const client of clients ?? []) names.set(client.id, `${client.name} (client)`);
    return (id: string) => (id === me ? 'You' : (names.get(id) ?? 'A teammate'));
  }, [members, clients, me]);
}
