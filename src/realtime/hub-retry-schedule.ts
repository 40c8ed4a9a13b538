/**
 * When the notification hub tries again. Two schedules, both from spec sections 4 and 9, extended
 * so that a session never gives up for good: a PWA stays open for days, and a hub that stopped
 * retrying after a minute would leave the app deaf until a reload.
 */
import { realtimeClientTimings } from '#contract/realtime.ts';

export interface HubRetryTimings {
  /** SignalR's own reconnect after a drop: these delays, then it gives up (we take over). */
  reconnectDelaysMs: readonly number[];
  /** A failed connect is retried this many times, `connectRetryDelayMs` x attempt apart... */
  connectRetries: number;
  connectRetryDelayMs: number;
  /** ...and after that (and after SignalR gave up), every this long, or at once on `online`. */
  steadyRetryMs: number;
}

export const defaultHubRetryTimings: HubRetryTimings = {
  reconnectDelaysMs: realtimeClientTimings.reconnectDelaysMs,
  connectRetries: realtimeClientTimings.connectRetries,
  connectRetryDelayMs: realtimeClientTimings.connectRetryDelayMs,
  steadyRetryMs: 30_000,
};

/** SignalR's retry policy: the delay before reconnect attempt `previousRetryCount + 1`, or null to stop. */
export function automaticReconnectDelayMs(
  timings: HubRetryTimings,
  previousRetryCount: number,
): number | null {
  return timings.reconnectDelaysMs[previousRetryCount] ?? null;
}

/** The wait after the `failures`-th failed connect in a row (1-based): 5 s x n up to 5, then steady. */
export function connectRetryDelayMs(timings: HubRetryTimings, failures: number): number {
  return failures >= 1 && failures <= timings.connectRetries
    ? timings.connectRetryDelayMs * failures
    : timings.steadyRetryMs;
}
