// Lint enforces the architecture (ARCHITECTURE.md "Import rules"): each layer's allowed imports,
// with the reason in the message, plus type-aware rules (no floating promises).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const rule = (group, message) => ({ group, message });
const regex = (pattern, message) => ({ regex: pattern, message });

/** no-restricted-imports for one layer. */
const layer = (files, patterns, paths = []) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns, paths }] },
});

const noServerInApp = rule(
  ['**/server/**', 'node:*'],
  'src/ runs in the browser: server code and Node built-ins stay out (ARCHITECTURE.md import rules).',
);
const onlyDbOwnsDexie = rule(
  ['dexie', 'dexie-react-hooks'],
  'Dexie is owned by src/db: import its typed tables and hooks from there, so schema and upgrades stay in one place.',
);
const onlyRealtimeOwnsSignalr = rule(
  ['@microsoft/signalr'],
  'SignalR is wrapped by src/realtime: use its typed connection instead.',
);
const onlySyncOwnsComlink = rule(
  ['comlink'],
  'comlink is wrapped by src/sync/sync-client: talk to the sync worker through it.',
);

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      'src/routeTree.gen.ts',
      'test-results/**',
      'playwright-report/**',
      'dev-dist/**',
      '.tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // First config that includes a file wins: each runtime is checked with its own libs.
        project: [
          './tsconfig.sw.json',
          './tsconfig.app.json',
          './tsconfig.server.json',
          './tsconfig.json',
        ],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/only-throw-error': 'error',
      'no-console': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: { 'no-console': 'off' },
  },
  {
    files: ['server/**/*.ts'],
    ignores: ['server/env.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message:
            'server/env.ts is the only reader of process.env: add the variable there, validated.',
        },
      ],
    },
  },

  {
    files: ['contract/**/*.ts'],
    ignores: ['contract/text.ts', 'contract/**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'v',
          property: 'string',
          message:
            'Use text() from contract/text.ts: it strips the control characters and lone surrogates a database refuses (NUL is a 500 otherwise).',
        },
      ],
    },
  },

  // --- Import rules, one override per layer ---
  layer(
    ['contract/**/*.ts'],
    [
      regex(
        '^(?!valibot$|jittered-fractional-indexing$|uuid$|\\.)',
        'contract/ is the isomorphic contract: it may import only valibot (and the pure libraries both sides must compute alike: order keys, name-based uuids).',
      ),
      regex('^\\.\\./\\.\\./', 'contract/ may not reach outside itself.'),
    ],
  ),
  layer(
    ['contract/**/*.test.ts'],
    [
      regex(
        '^(?!valibot$|vitest$|\\.)',
        'contract/ tests may import only valibot, vitest and the contract itself.',
      ),
    ],
  ),
  layer(
    ['src/**/*.{ts,tsx}'],
    [noServerInApp, onlyDbOwnsDexie, onlyRealtimeOwnsSignalr, onlySyncOwnsComlink],
  ),
  layer(
    ['src/ui/**/*.{ts,tsx}'],
    [
      noServerInApp,
      onlyDbOwnsDexie,
      rule(
        [
          '**/features/**',
          '**/db/**',
          '**/data/**',
          '**/sync/**',
          '**/api-client/**',
          '**/routes/**',
          '**/app/**',
          '**/auth/**',
        ],
        'src/ui holds domain-free primitives: it may import react and css only.',
      ),
    ],
  ),
  layer(
    ['src/routes/**/*.{ts,tsx}'],
    [
      noServerInApp,
      onlyDbOwnsDexie,
      rule(
        ['**/db/**', '**/data/**', '**/sync/**', '**/api-client/**'],
        'Routes describe URLs and guards; data access lives in features (ARCHITECTURE.md import rules).',
      ),
    ],
  ),
  layer(
    ['src/features/**/*.{ts,tsx}'],
    [
      noServerInApp,
      onlyDbOwnsDexie,
      onlyRealtimeOwnsSignalr,
      onlySyncOwnsComlink,
      rule(
        ['**/api-client/**'],
        'Features write through the outbox (src/db + the sync client), never straight to the API.',
      ),
      rule(
        ['**/routes/**', '**/app/**'],
        'Features do not know the router tree or the composition root.',
      ),
      rule(
        ['**/sync/**', '!**/sync/sync-client*'],
        'Features reach the sync engine only through src/sync/sync-client.',
      ),
    ],
  ),
  layer(
    ['src/data/**/*.{ts,tsx}'],
    [
      noServerInApp,
      onlyDbOwnsDexie,
      onlyRealtimeOwnsSignalr,
      onlySyncOwnsComlink,
      rule(
        ['**/api-client/**'],
        'src/data writes through the outbox (src/db + the sync client), never straight to the API.',
      ),
      rule(
        ['**/features/**', '**/routes/**', '**/app/**', '**/ui/**'],
        'src/data is the entity queries and writes that features share: it knows no screen.',
      ),
      rule(
        ['**/sync/**', '!**/sync/sync-client*'],
        'src/data reaches the sync engine only through src/sync/sync-client.',
      ),
    ],
  ),
  layer(
    ['src/db/**/*.ts'],
    [
      noServerInApp,
      rule(
        [
          'react',
          'react-dom',
          'react/*',
          '**/sync/**',
          '**/data/**',
          '**/features/**',
          '**/api-client/**',
          '**/routes/**',
          '**/ui/**',
        ],
        'src/db runs on the main thread and in the sync worker: dexie and the contract only.',
      ),
    ],
  ),
  layer(
    ['src/sync/**/*.ts'],
    [
      noServerInApp,
      onlyDbOwnsDexie,
      onlyRealtimeOwnsSignalr,
      rule(
        [
          'react',
          'react-dom',
          'react/*',
          '**/data/**',
          '**/features/**',
          '**/routes/**',
          '**/ui/**',
        ],
        'src/sync runs in a worker: no React, no screens.',
      ),
    ],
  ),
  layer(
    ['src/realtime/**/*.ts'],
    [
      noServerInApp,
      onlyDbOwnsDexie,
      onlySyncOwnsComlink,
      rule(
        ['**/db/**', '**/data/**', '**/sync/**', '**/features/**', '**/routes/**', '**/ui/**'],
        'src/realtime only emits typed hub events; src/app wires them to sync.',
      ),
    ],
  ),
  layer(
    ['src/api-client/**/*.ts'],
    [
      noServerInApp,
      onlyDbOwnsDexie,
      rule(
        [
          'react',
          'react-dom',
          '**/db/**',
          '**/data/**',
          '**/sync/**',
          '**/features/**',
          '**/routes/**',
          '**/ui/**',
        ],
        'The api-client is one fetch wrapper over the contract; it knows nothing else.',
      ),
    ],
  ),
  layer(
    ['src/sw/**/*.ts'],
    [
      regex(
        '^(?!workbox-|#contract/|\\./)',
        'The service worker runs in its own scope: workbox and contract constants only.',
      ),
    ],
  ),
  layer(
    ['server/**/*.ts'],
    [
      rule(['**/src/**'], 'server/ never imports the PWA (src/); share code through contract/.'),
      rule(
        ['react', 'react-dom', 'dexie', 'dexie-react-hooks', '@microsoft/signalr', 'comlink'],
        'Browser libraries do not belong in the server.',
      ),
    ],
  ),
  {
    files: ['**/*.test.{ts,tsx}', 'tests/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      // Tests read JSON bodies loosely and assert on them; production code may not.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
