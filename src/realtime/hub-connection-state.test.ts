import { describe, expect, it } from 'vitest';
import {
  hubConnectionStates,
  nextHubConnectionState,
  type HubConnectionEvent,
  type HubConnectionState,
} from './hub-connection-state.ts';

const events: HubConnectionEvent[] = ['start', 'open', 'fail', 'drop', 'stop'];

describe('nextHubConnectionState', () => {
  it('follows the lifecycle: start, open, drop, open again, stop', () => {
    let state: HubConnectionState = 'disconnected';
    const seen: HubConnectionState[] = [];
    for (const event of ['start', 'fail', 'open', 'drop', 'fail', 'open', 'stop'] as const) {
      state = nextHubConnectionState(state, event) ?? state;
      seen.push(state);
    }
    expect(seen).toEqual([
      'connecting',
      'connecting',
      'connected',
      'reconnecting',
      'reconnecting',
      'connected',
      'disconnected',
    ]);
  });

  it('is exactly this table; every other event is ignored (null)', () => {
    const table = Object.fromEntries(
      hubConnectionStates.map((state) => [
        state,
        Object.fromEntries(events.map((event) => [event, nextHubConnectionState(state, event)])),
      ]),
    );
    expect(table).toEqual({
      disconnected: { start: 'connecting', open: null, fail: null, drop: null, stop: null },
      connecting: {
        start: null,
        open: 'connected',
        fail: 'connecting',
        drop: null,
        stop: 'disconnected',
      },
      connected: {
        start: null,
        open: null,
        fail: 'reconnecting',
        drop: 'reconnecting',
        stop: 'disconnected',
      },
      reconnecting: {
        start: null,
        open: 'connected',
        fail: 'reconnecting',
        drop: 'reconnecting',
        stop: 'disconnected',
      },
    });
  });

  it('never leaves disconnected except by start, and a stopped session cannot reopen', () => {
    for (const event of events) {
      if (event === 'start') continue;
      expect(nextHubConnectionState('disconnected', event)).toBeNull();
    }
  });
});
