/**
 * syncState rows: the device record (`device`: stable clientId for this user on this browser and
 * the next clientSeq, allocated inside each local write's transaction) and one record per
 * workspace (`ws:<id>`: opaque pull cursor, highest change seq seen, whether a re-download must
 * end with a sweep of rows the server no longer has, and whether the member list is owed a read). Read back through valibot: they steer sync.
 */
import * as v from 'valibot';
import type { Transaction } from 'dexie';

export const DEVICE_KEY = 'device';
export const workspaceStateKey = (workspaceId: string) => `ws:${workspaceId}`;

export const deviceStateSchema = v.object({
  key: v.literal(DEVICE_KEY),
  clientId: v.string(),
  nextClientSeq: v.number(),
});
export type DeviceState = v.InferOutput<typeof deviceStateSchema>;

export const workspaceSyncStateSchema = v.object({
  key: v.string(),
  kind: v.literal('workspace'),
  workspaceId: v.string(),
  /** Opaque; echoed to the server. Absent: the next pull is a snapshot. */
  cursor: v.exactOptional(v.string()),
  /** Highest change seq applied (for ignoring stale invalidations). */
  highestSeq: v.number(),
  /** A reset is in progress: when the snapshot ends, rows it did not contain are removed. */
  needsSweep: v.boolean(),
  /**
   * The member list is to be re-read (after a snapshot, or a pull that brought the workspace row):
   * kept until a read lands, so a read cut short (the worker stopped, the network dropped) is
   * made again at the next pull instead of leaving names and roles missing until a re-download.
   */
  membersStale: v.exactOptional(v.boolean()),
  lastPullAt: v.exactOptional(v.number()),
  lastFullSyncAt: v.exactOptional(v.number()),
});
export type WorkspaceSyncState = v.InferOutput<typeof workspaceSyncStateSchema>;

export type SyncStateRecord = DeviceState | WorkspaceSyncState;

export function restoreWorkspaceState(raw: unknown, workspaceId: string): WorkspaceSyncState {
  const parsed = v.safeParse(workspaceSyncStateSchema, raw);
  // A missing or unreadable record means "never synced": a snapshot repairs it.
  return parsed.success && parsed.output.workspaceId === workspaceId
    ? parsed.output
    : {
        key: workspaceStateKey(workspaceId),
        kind: 'workspace',
        workspaceId,
        highestSeq: 0,
        needsSweep: false,
      };
}

export function newClientId(): string {
  return crypto.randomUUID();
}

/**
 * The next clientSeq for this device, created on first use. Must run inside the write's
 * transaction (syncState in its scope) so two writes never share a number.
 */
export async function allocateClientSeq(
  tx: Transaction,
): Promise<{ clientId: string; clientSeq: number }> {
  const table = tx.table<SyncStateRecord, string>('syncState');
  const parsed = v.safeParse(deviceStateSchema, await table.get(DEVICE_KEY));
  const device: DeviceState = parsed.success
    ? parsed.output
    : { key: DEVICE_KEY, clientId: newClientId(), nextClientSeq: 1 };
  await table.put({ ...device, nextClientSeq: device.nextClientSeq + 1 });
  return { clientId: device.clientId, clientSeq: device.nextClientSeq };
}
