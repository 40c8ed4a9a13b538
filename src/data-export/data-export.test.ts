import { strFromU8, unzipSync } from 'fflate';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { clientEntity } from '#contract/entities/client.ts';
import { allEntities, entityNamed } from '#contract/synced-entities.ts';
import { syncedClientRow } from '../db/client-test-fakes.ts';
import { createTestDatabase, WS } from '../features/projects/project-screen-test-utils.tsx';
import { fileArchivePath, safeSegment, uniquePath } from './archive-paths.ts';
import { blobBytes, collectFileBytes, type FileBytesSource } from './collect-file-bytes.ts';
import { csvCell, escapeFormula } from './csv-cell.ts';
import { archiveEntries, zipEntries, type ExportContent } from './export-archive.ts';
import { exportColumns, exportRow } from './export-columns.ts';
import { exportFileName, workspaceSlug } from './export-file-name.ts';
import { exportWorkspace } from './export-workspace.ts';
import { readWorkspaceTables } from './read-workspace-tables.ts';
import { rowsToCsv, UTF8_BOM } from './rows-to-csv.ts';

const parse = (csv: string) =>
  Papa.parse<string[]>(csv.replace(UTF8_BOM, ''), { skipEmptyLines: true }).data;

describe('formula escaping', () => {
  it.each(['=1+2', "=cmd|' /C calc'!A0", '+44 20 7946 0000', '-2+3', '@SUM(A1)', '\tx', '\rx'])(
    'prefixes a single quote to %j',
    (text) => expect(escapeFormula(text)).toBe(`'${text}`),
  );

  it('leaves other text, numbers and booleans as they are', () => {
    expect(escapeFormula('Ada = engineer')).toBe('Ada = engineer');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(['a', '=b'])).toBe('["a","=b"]');
  });
});

describe('rowsToCsv', () => {
  it('writes a header and quotes commas, quotes and line breaks, and escapes formulas', () => {
    const csv = rowsToCsv(
      ['name', 'notes', 'tags', 'count'],
      [
        { name: 'Aurora, Labs', notes: 'said "hi"\nthen left', tags: ['x', 'y'], count: 3 },
        { name: '=HYPERLINK("http://evil")', notes: null, tags: [], count: -1 },
      ],
    );
    expect(csv.startsWith(UTF8_BOM)).toBe(true);
    expect(parse(csv)).toEqual([
      ['name', 'notes', 'tags', 'count'],
      ['Aurora, Labs', 'said "hi"\nthen left', '["x","y"]', '3'],
      ['\'=HYPERLINK("http://evil")', '', '[]', '-1'],
    ]);
  });
});

describe('export columns', () => {
  it("are the declaration's row fields without the device's local fields", () => {
    expect(exportColumns(entityNamed('task')).slice(0, 3)).toEqual([
      'id',
      'workspaceId',
      'projectId',
    ]);
    const columns = exportColumns(entityNamed('client'));
    expect(columns).toContain('name');
    expect(columns).toContain('version');
    expect(
      exportRow({ id: 'a', name: 'n', _v: 3, _pending: 1, _deleted: false, _base: {} }),
    ).toEqual({
      id: 'a',
      name: 'n',
    });
  });
});

describe('file name', () => {
  it('is satchel-<workspace slug>-<local date>.zip', () => {
    expect(exportFileName('Ana’s Café & Co.', new Date(2026, 10, 5, 23, 30))).toBe(
      'satchel-ana-s-cafe-co-2026-11-05.zip',
    );
    expect(workspaceSlug('???')).toBe('workspace');
    expect(workspaceSlug('x'.repeat(80))).toHaveLength(40);
  });
});

describe('archive paths', () => {
  it('keeps names but makes every segment safe, and never overwrites a path', () => {
    expect(fileArchivePath('Web / App', 'Designs/Final', 'logo.png')).toBe(
      'files/Web _ App/Designs/Final/logo.png',
    );
    expect(safeSegment('..')).toBe('_');
    expect(safeSegment('a:b*?.')).toBe('a_b__');
    const taken = new Set<string>();
    expect(uniquePath('files/P/logo.png', taken)).toBe('files/P/logo.png');
    expect(uniquePath('files/P/Logo.png', taken)).toBe('files/P/Logo (2).png');
    expect(uniquePath('files/P/logo.png', taken)).toBe('files/P/logo (3).png');
    expect(uniquePath('files/P.d/README', taken)).toBe('files/P.d/README');
  });
});

const clientRow = {
  id: 'c1',
  workspaceId: WS,
  name: '=cmd|" /C calc"!A0',
  company: 'Aurora Labs',
  tags: ['vip'],
};

function content(overrides: Partial<ExportContent> = {}): ExportContent {
  return {
    workspace: { id: WS, name: 'Studio' },
    exportedAt: '2026-11-25T10:00:00.000Z',
    tables: allEntities().map((entity) => ({
      entity,
      rows: entity.name === 'client' ? [clientRow] : [],
    })),
    filesRequested: true,
    files: [
      { fileId: 'f1', path: 'files/Website/brief.txt', bytes: new TextEncoder().encode('hello') },
    ],
    missingFiles: [
      { fileId: 'f2', path: 'files/Website/big.mov', reason: 'Offline, and not kept' },
    ],
    ...overrides,
  };
}

function unzip(chunks: Uint8Array[]) {
  const whole = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.length;
  }
  return unzipSync(whole);
}

describe('the archive', () => {
  it('holds README, workspace.json of every entity, a CSV per entity and the files', async () => {
    const progress: number[] = [];
    const files = unzip(
      await zipEntries(archiveEntries(content()), { onProgress: (done) => progress.push(done) }),
    );
    const names = Object.keys(files);
    expect(names).toContain('README.txt');
    expect(names).toContain('files/Website/brief.txt');
    for (const entity of allEntities()) expect(names).toContain(`csv/${entity.plural}.csv`);

    const json = JSON.parse(strFromU8(files['workspace.json']!)) as {
      formatVersion: number;
      entities: Record<string, unknown[]>;
      files: { missing: { path: string }[] };
    };
    expect(json.formatVersion).toBe(1);
    expect(Object.keys(json.entities)).toEqual(allEntities().map((entity) => entity.name));
    // The JSON keeps the value exactly; only the CSV escapes it.
    expect(json.entities.client).toEqual([clientRow]);
    expect(json.files.missing[0]?.path).toBe('files/Website/big.mov');

    const clientsCsv = parse(strFromU8(files['csv/clients.csv']!));
    expect(clientsCsv[0]).toEqual(exportColumns(clientEntity as never));
    expect(clientsCsv[1]?.[clientsCsv[0]!.indexOf('name')]).toBe(`'${clientRow.name}`);
    expect(parse(strFromU8(files['csv/tasks.csv']!))).toHaveLength(1);

    expect(strFromU8(files['files/Website/brief.txt']!)).toBe('hello');
    const readme = strFromU8(files['README.txt']!);
    expect(readme).toContain('Files not included: 1');
    expect(readme).toContain('files/Website/big.mov: Offline, and not kept');
    expect(progress.at(-1)).toBeGreaterThan(0);
  });

  it('says in the README when files were not asked for', () => {
    const readme = archiveEntries(
      content({ filesRequested: false, files: [], missingFiles: [] }),
    )[0]!;
    expect([...readme.parts()].join('')).toContain('not included (tick "Include files"');
  });
});

describe('collectFileBytes', () => {
  const tables = allEntities().map((entity) => ({
    entity,
    rows:
      entity.name === 'project'
        ? [{ id: 'p1', name: 'Website' }]
        : entity.name === 'file'
          ? ['kept.txt', 'remote.txt', 'broken.txt'].map((name, i) => ({
              id: `f${i}`,
              projectId: 'p1',
              folder: '',
              name,
              versions: [{ number: 1 }, { number: 2 }],
            }))
          : [],
  }));
  const kept: FileBytesSource['kept'] = (id, version) =>
    Promise.resolve(id === 'f0' && version === 2 ? new Blob(['kept bytes']) : undefined);

  it('takes kept copies offline and lists the rest as missing instead of failing', async () => {
    const { files, missing } = await collectFileBytes(tables, { kept, download: null });
    expect(files.map((file) => file.path)).toEqual(['files/Website/kept.txt']);
    expect(missing.map((file) => file.path)).toEqual([
      'files/Website/remote.txt',
      'files/Website/broken.txt',
    ]);
    expect(missing[0]?.reason).toMatch(/Offline/);
  });

  it('downloads the others online; a failed download is listed with its reason', async () => {
    const { files, missing } = await collectFileBytes(tables, {
      kept,
      download: (id) =>
        id === 'f2'
          ? Promise.reject(new Error('The download failed (404).'))
          : Promise.resolve(new Blob(['remote'])),
    });
    expect(files).toHaveLength(2);
    expect(new TextDecoder().decode(files[1]!.bytes)).toBe('remote');
    expect(missing).toEqual([
      { fileId: 'f2', path: 'files/Website/broken.txt', reason: 'The download failed (404).' },
    ]);
  });
});

describe('exportWorkspace (device tables)', () => {
  it("reads the workspace's rows, leaves out pending deletes and other workspaces, and zips them", async () => {
    const db = await createTestDatabase();
    await db.clients.bulkPut([
      syncedClientRow({ id: 'c1', workspaceId: WS, name: 'Kept', currency: 'EUR' }),
      syncedClientRow({
        id: 'c2',
        workspaceId: WS,
        name: 'Being deleted',
        currency: 'EUR',
        _deleted: true,
      }),
      syncedClientRow({ id: 'c3', workspaceId: 'other', name: 'Elsewhere', currency: 'EUR' }),
    ]);
    const tables = await readWorkspaceTables(db, WS);
    expect(tables.map((table) => table.entity.name)).toEqual(allEntities().map((e) => e.name));
    expect(tables[0]!.rows).toEqual([expect.objectContaining({ id: 'c1', name: 'Kept' })]);
    expect(tables[0]!.rows[0]).not.toHaveProperty('_v');

    const phases = new Set<string>();
    const result = await exportWorkspace({
      db,
      workspace: { id: WS, name: 'Studio' },
      files: null,
      now: () => new Date(2026, 10, 25),
      onProgress: ({ phase }) => phases.add(phase),
    });
    expect(result.fileName).toBe('satchel-studio-2026-11-25.zip');
    expect(result.recordCount).toBe(1);
    expect([...phases]).toEqual(['reading', 'packing']);
    const files = unzip([await blobBytes(result.blob)]);
    expect(strFromU8(files['workspace.json']!)).toContain('"name":"Kept"');
    db.close();
  });
});
