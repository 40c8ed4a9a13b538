/**
 * The notification hub's connection states (spec section 4) and the only transitions between
 * them. The hub client moves through this table and nowhere else, so the state the app shows can
 * never contradict what the connection is doing.
 *
 *   disconnected --start--> connecting --open--> connected --drop--> reconnecting --open--> connected
 *   connecting and reconnecting stay put on a failed attempt (a retry is scheduled); a failed
 *   join on a live connection (a new workspace) restarts it: connected --fail--> reconnecting
 *   any state --stop--> disconnected
 */
export const hubConnectionStates = [
  'disconnected',
  'connecting',
  'connected',
  'reconnecting',
] as const;
export type HubConnectionState = (typeof hubConnectionStates)[number];

export type HubConnectionEvent =
  /** The session began: the first connect attempt is under way. */
  | 'start'
  /** The transport is up and the groups are joined. */
  | 'open'
  /** A connect attempt failed; another one is scheduled. */
  | 'fail'
  /** A live connection was lost; reconnecting (automatically, then on a schedule). */
  | 'drop'
  /** The session ended (sign-out, user switch). */
  | 'stop';

const transitions: Record<
  HubConnectionState,
  Partial<Record<HubConnectionEvent, HubConnectionState>>
> = {
  disconnected: { start: 'connecting' },
  connecting: { open: 'connected', fail: 'connecting', stop: 'disconnected' },
  connected: { drop: 'reconnecting', fail: 'reconnecting', stop: 'disconnected' },
  reconnecting: {
    open: 'connected',
    fail: 'reconnecting',
    drop: 'reconnecting',
    stop: 'disconnected',
  },
};

/**
 * The state after `event`, or null when the event means nothing in `state` (a late callback of a
 * connection that was already stopped, say): the caller keeps its state rather than guessing.
 */
export function nextHubConnectionState(
  state: HubConnectionState,
  event: HubConnectionEvent,
): HubConnectionState | null {
  return transitions[state][event] ?? null;
}
