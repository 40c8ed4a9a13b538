import { describe, expect, it } from 'vitest';
import { electLeader, leaderLockName } from './leader-election.ts';
import { createFakeLocks } from './sync-test-fakes.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('leader election', () => {
  it('makes one tab leader and hands over at once when it closes', async () => {
    const locks = createFakeLocks();
    const led: string[] = [];
    const tab = (name: string) =>
      electLeader({ locks, name: leaderLockName('u1'), onLeader: () => void led.push(name) });
    const first = tab('first');
    const second = tab('second');
    const third = tab('third');
    await tick();
    expect(led).toEqual(['first']);
    expect([first.isLeader(), second.isLeader()]).toEqual([true, false]);

    // A queued tab that closes gives up its place without ever leading.
    second.stop();
    first.stop();
    await tick();
    expect(led).toEqual(['first', 'third']);
    expect(third.isLeader()).toBe(true);
    expect(locks.holder('sync:u1')).not.toBeNull();
    third.stop();
    await tick();
    expect(locks.holder('sync:u1')).toBeNull();
  });

  it('leads alone where Web Locks are missing', async () => {
    let led = 0;
    const election = electLeader({ locks: null, name: 'sync:u1', onLeader: () => void (led += 1) });
    await tick();
    expect(led).toBe(1);
    expect(election.isLeader()).toBe(true);
  });
});
