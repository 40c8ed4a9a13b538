/**
 * A project page's first answers, asked for by /portal-init.js (portal-init-script.ts) once the
 * page's first frame is drawn, while the portal's scripts are still on their way: the project, its milestones, files
 * and change requests at once, and the workspace's settings as soon as the project names its
 * workspace. The portal's API client takes each answer once, in place of its own request for the
 * same address (the script builds addresses as the API client does; the tests hold them to it).
 * What the page asks for later goes to the network as always.
 */

/** Where the init script leaves the answers on `window`: address -> fetch promise. */
export const PORTAL_PREFETCH_GLOBAL = '__satchelPortalPrefetch';

export type PrefetchStore = Record<string, Promise<Response> | undefined>;

/** The address the init script asks at, as the API client writes it (`prefetchScript`'s `e`). */
export function prefetchAddress(endpoint: string, key: string, value: string): string {
  const query = new URLSearchParams();
  query.set('endpoint', endpoint);
  query.set(key, value);
  return `/api/client-portal?${query.toString()}`;
}

/** A fetch that answers a GET from the store once, when the init script asked for it. */
export function prefetchingFetch(
  fetch: typeof globalThis.fetch,
  store: PrefetchStore | undefined,
): typeof globalThis.fetch {
  return (input, init) => {
    const method = init?.method ?? 'GET';
    if (store && typeof input === 'string' && method === 'GET') {
      const prefetched = store[input];
      if (prefetched) {
        delete store[input];
        return prefetched;
      }
    }
    return fetch(input, init);
  };
}

/**
 * The init script's part that asks (plain ES5 text): `j` is the page's project id, `w` the window,
 * whose store the init script has made (gone if the portal started first: it asks itself then).
 */
export function prefetchScript(): string {
  return `var f=w[${JSON.stringify(PORTAL_PREFETCH_GLOBAL)}];if(f){
var g=function(q){var u='/api/client-portal?'+q.toString();var r=fetch(u,{headers:{Accept:'application/json'}});r['catch'](function(){});f[u]=r;return r};
var e=function(n,k,v){var q=new URLSearchParams();q.set('endpoint',n);q.set(k,v);return g(q)};
e('get-client-project','id',j).then(function(r){return r.ok?r.clone().json():null}).then(function(b){
if(b&&b.project&&typeof b.project.workspaceId==='string')e('get-workspace-settings','workspaceId',b.project.workspaceId)})['catch'](function(){});
e('get-project-milestones','projectId',j);e('get-project-files','projectId',j);e('get-change-requests','projectId',j);}`;
}
