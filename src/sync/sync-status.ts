/**
 * The header's one-line sync state, in the product's words. Priority: what needs the user first
 * (failed, sign in, update), then offline, then waiting, then saved. Pure: the header component
 * (later work) renders `text` and picks its icon from `tone`.
 */
import type { SyncEngineState } from './sync-engine.ts';

export type SyncTone = 'saved' | 'waiting' | 'offline' | 'error';

export interface SyncSummaryInput {
  state: SyncEngineState | 'follower' | 'local';
  waiting: number;
  failed: number;
}

const changes = (n: number) => `${n} change${n === 1 ? '' : 's'}`;

export function describeSyncStatus(status: SyncSummaryInput): { tone: SyncTone; text: string } {
  // The demo's database never syncs: its changes are kept, by design, and nothing is waiting.
  if (status.state === 'local')
    return { tone: 'saved', text: 'Demo — changes stay in this browser' };
  if (status.failed > 0) {
    return { tone: 'error', text: `${changes(status.failed)} couldn't be saved` };
  }
  if (status.state === 'needs_auth') {
    return { tone: 'error', text: `Sign in to sync ${changes(status.waiting)}` };
  }
  if (status.state === 'update_required') {
    return { tone: 'error', text: `Update the app to sync ${changes(status.waiting)}` };
  }
  if (status.state === 'offline') {
    return { tone: 'offline', text: 'Offline — changes are kept on this device' };
  }
  if (status.waiting > 0) return { tone: 'waiting', text: `${changes(status.waiting)} waiting` };
  return { tone: 'saved', text: 'All changes saved' };
}
