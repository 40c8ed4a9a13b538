/**
 * Shell budget (ARCHITECTURE.md section 11): bytes the service worker precaches, and gzip bytes of
 * the JavaScript the first page load needs (the entry script plus its modulepreloads). Measured on
 * a fresh production build; the reference is the budget itself.
 */
import { spawnSync } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BenchRow } from './bench-row.ts';

export type SizeRow = BenchRow;

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Builds into `.tmp/dist-bench` (kept for the Lighthouse audits of the same run). */
export async function measureShellSize(
  root: string,
  outDir = path.join(root, '.tmp', 'dist-bench'),
): Promise<SizeRow[]> {
  const build = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--outDir',
      outDir,
      '--logLevel',
      'error',
    ],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (build.status !== 0) throw new Error('vite build failed');

  const sw = await readFile(path.join(outDir, 'sw.js'), 'utf8');
  const urls = [...sw.matchAll(/"url":"([^"]+)"/g)].map((match) => match[1] as string);
  let precache = 0;
  for (const url of new Set(urls)) precache += (await stat(path.join(outDir, url))).size;

  const html = await readFile(path.join(outDir, 'index.html'), 'utf8');
  const initial = [
    ...html.matchAll(/<(?:script[^>]*src|link rel="modulepreload"[^>]*href)="\/([^"]+\.js)"/g),
  ].map((match) => match[1] as string);
  let initialGzip = 0;
  for (const file of initial)
    initialGzip += gzipSync(await readFile(path.join(outDir, file)), { level: 9 }).length;

  const precacheBudget = 2 * 1024 * 1024;
  const jsBudget = 200 * 1024;
  return [
    {
      what: `service-worker precache (${new Set(urls).size} files)`,
      figure: kib(precache),
      reference: `${kib(precacheBudget)} (budget)`,
      ratio: `${((precache / precacheBudget) * 100).toFixed(0)}% of budget`,
      target: '< 2 MiB',
      pass: precache < precacheBudget,
    },
    {
      what: `initial JavaScript, gzip (entry + ${initial.length - 1} modulepreloads)`,
      figure: kib(initialGzip),
      reference: `${kib(jsBudget)} (budget)`,
      ratio: `${((initialGzip / jsBudget) * 100).toFixed(0)}% of budget`,
      target: '< 200 KiB gzip',
      pass: initialGzip < jsBudget,
    },
  ];
}
