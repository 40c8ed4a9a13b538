/**
 * The hub backplane on Redis pub/sub (node-redis): one connection publishes, a duplicate
 * subscribes (a subscribed connection can do nothing else). Every channel carries `prefix`, so
 * deployments and test runs sharing one Redis never hear each other.
 *
 * Failure behaviour: commands fail fast while Redis is unreachable (no offline queue), so a hub
 * send after commit is logged as failed instead of holding the request; node-redis reconnects on
 * its own and re-subscribes every channel that still has listeners.
 */
import { createClient } from 'redis';
import type { Logger } from '../logger.ts';
import type { Backplane, BackplaneListener } from './backplane.ts';

export async function createRedisBackplane(deps: {
  url: string;
  /** Prepended to every channel, e.g. `satchel:`; tests use a random one per run. */
  prefix: string;
  logger: Logger;
}): Promise<Backplane> {
  const log = deps.logger.child({ component: 'redis-backplane' });
  const publisher = createClient({
    url: deps.url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 5_000 },
  });
  const subscriber = publisher.duplicate();
  for (const [role, client] of [
    ['publisher', publisher],
    ['subscriber', subscriber],
  ] as const) {
    // Without a listener an 'error' event would crash the process; node-redis retries by itself.
    client.on('error', (error: unknown) =>
      log.warn({ err: error, role }, 'redis connection error'),
    );
  }
  await Promise.all([publisher.connect(), subscriber.connect()]);
  log.info({ prefix: deps.prefix }, 'redis backplane connected');

  const channelName = (channel: string) => deps.prefix + channel;
  let closed = false;

  return {
    publish(channel, message) {
      return publisher.publish(channelName(channel), message);
    },
    async subscribe(channel, listener: BackplaneListener) {
      const name = channelName(channel);
      // A distinct function per call, so removing one hub's listener leaves another's in place.
      const own = (message: string) => listener(message);
      await subscriber.subscribe(name, own);
      return async () => {
        if (closed) return;
        await subscriber.unsubscribe(name, own);
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([subscriber.close(), publisher.close()]);
    },
  };
}
