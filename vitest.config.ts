import { defineConfig } from 'vitest/config';

// Two projects, selected by where a test lives: `client` runs the PWA's modules in jsdom with
// fake-indexeddb, `server` runs server/ and contract/ in Node against PGlite.
// `*.pg.test.ts` need a PostgreSQL server and skip themselves unless DATABASE_URL_TEST is set.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/fixtures/client-setup.ts'],
          // Screen tests drive many renders; on 2 busy cores a long one passes 5 s.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: [
            'server/**/*.test.ts',
            'contract/**/*.test.ts',
            'tests/integration/**/*.test.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
