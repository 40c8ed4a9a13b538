/**
 * A benchmark section run alone (`npx tsx bench/<name>-benchmarks.ts [distDir]`): builds the app
 * into `.tmp/dist-bench-<name>` when no build is given, runs the section, prints its table and
 * rewrites only that table in BENCHMARKS.md, between `<!-- <name>-bench:start -->` and `:end`.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { format } from 'prettier';
import type { BenchRow } from './bench-row.ts';
import { formatRows } from './lighthouse.ts';

const root = path.resolve(import.meta.dirname, '..');

export async function runSectionAlone(options: {
  name: string;
  /** Tools named in the run's line besides Node ("Lighthouse 12.2.3"). */
  tools?: string;
  run: (distDir: string) => Promise<BenchRow[]>;
}): Promise<void> {
  let distDir = process.argv[2];
  if (!distDir) {
    distDir = path.join(root, '.tmp', `dist-bench-${options.name}`);
    process.stderr.write(`${options.name} bench: building into ${distDir}\n`);
    await promisify(execFile)('npx', ['vite', 'build', '--outDir', distDir], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    });
  }
  const started = performance.now();
  const rows = await options.run(distDir);
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  const table = [
    `Section run ${new Date().toISOString()} (\`npx tsx bench/${options.name}-benchmarks.ts\`) on Node ${process.version}, ${options.tools ? `${options.tools}, ` : ''}${cpus().length} cores, build in \`${path.relative(root, distDir)}\`; ${seconds} s.`,
    '',
    formatRows(rows),
  ].join('\n');
  process.stdout.write(`${table}\n`);
  const file = path.join(root, 'BENCHMARKS.md');
  const current = await readFile(file, 'utf8');
  const start = `<!-- ${options.name}-bench:start -->`;
  const end = `<!-- ${options.name}-bench:end -->`;
  if (!current.includes(start) || !current.includes(end)) {
    process.stderr.write(
      `${options.name} bench: no ${start} ... ${end} in BENCHMARKS.md; not written\n`,
    );
    return;
  }
  const next = current.replace(new RegExp(`${start}[\\s\\S]*${end}`), `${start}\n${table}\n${end}`);
  // Written as prettier formats it, so `prettier --check` stays green.
  await writeFile(file, await format(next, { filepath: file }));
}
