/**
 * Moved to src/data/project-mutations.ts. This re-export stays only for importers outside src/
 * features and src/data (src/app/route-search.test.tsx, tests/integration/sync-engine.test.ts)
 * until they import src/data; no feature imports it. Delete it then.
 */
export * from '../../data/project-mutations.ts';
