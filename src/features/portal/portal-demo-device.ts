/**
 * The "device" of the client portal demo: where the portal screen keeps its offline copy, its
 * queue of change requests, its session and its copies of opened files. In the real portal these
 * are localStorage and Cache Storage; in the demo they live in the page's memory, so trying the
 * demo leaves nothing in the browser and never touches a real portal's keys or copies. Reloading
 * the page, or Reset demo, starts again from the sample project.
 */
import type { PortalFileCopies } from './portal-file-copies.ts';

/** A Storage over a Map. */
export function createMemoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (key) => map.get(key) ?? null,
    key: (index) => [...map.keys()][index] ?? null,
    removeItem: (key) => void map.delete(key),
    setItem: (key, value) => void map.set(key, String(value)),
  };
}

/** File copies in memory, by project, file and version, with the same rules as Cache Storage's. */
export function createMemoryFileCopies(): PortalFileCopies {
  type Copies = Map<string, { version: number; bytes: Blob }>;
  const copies = new Map<string, Copies>();
  const of = (projectId: string): Copies => {
    let project = copies.get(projectId);
    if (!project) copies.set(projectId, (project = new Map() as Copies));
    return project;
  };
  return {
    kept: (projectId) =>
      Promise.resolve(new Map([...of(projectId)].map(([id, copy]) => [id, copy.version]))),
    keep(projectId, file, bytes) {
      // A newer version replaces the older copy, as in the real portal.
      of(projectId).set(file.id, { version: file.version, bytes });
      return Promise.resolve();
    },
    open(projectId, file) {
      const copy = of(projectId).get(file.id);
      return Promise.resolve(copy?.version === file.version ? copy.bytes : null);
    },
    forget(projectId) {
      copies.delete(projectId);
      return Promise.resolve();
    },
  };
}
