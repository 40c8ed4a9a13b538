import { describe, expect, it } from 'vitest';
import { createTestDatabase, USER_ID, WS } from '../projects/project-screen-test-utils.tsx';
import { guessMapping, mappingProblem } from './client-import-fields.ts';
import { csvFileProblem, MAX_IMPORT_BYTES } from './csv-file-check.ts';
import { importClients } from './import-clients.ts';
import { parseClientCsv, type ParsedCsv } from './parse-client-csv.ts';
import { validateClientRows } from './validate-client-rows.ts';

let n = 0;
const defaults = {
  workspaceId: WS,
  currency: 'EUR',
  newId: () => `0190a000-0000-7000-8000-${String((n += 1)).padStart(12, '0')}`,
};

function parsed(text: string): ParsedCsv {
  const result = parseClientCsv(text);
  if ('error' in result) throw new Error(result.error);
  return result;
}

describe('csvFileProblem', () => {
  it('accepts a CSV by name or type up to 5 MB', () => {
    expect(csvFileProblem({ name: 'clients.csv', size: 10, type: '' })).toBeNull();
    expect(csvFileProblem({ name: 'export', size: 10, type: 'text/csv' })).toBeNull();
    expect(
      csvFileProblem({ name: 'c.CSV', size: MAX_IMPORT_BYTES, type: 'application/vnd.ms-excel' }),
    ).toBeNull();
  });

  it('refuses a 50 MB file, a non-CSV and an empty file with a message', () => {
    expect(csvFileProblem({ name: 'big.csv', size: 50 * 1024 * 1024, type: 'text/csv' })).toMatch(
      /is 50\.0 MB; the limit is 5 MB/,
    );
    expect(csvFileProblem({ name: 'photo.png', size: 10, type: 'image/png' })).toMatch(
      /is not a CSV file/,
    );
    expect(csvFileProblem({ name: 'book.xlsx', size: 10, type: '' })).toMatch(/is not a CSV file/);
    expect(csvFileProblem({ name: 'e.csv', size: 0, type: 'text/csv' })).toMatch(/is empty/);
  });
});

describe('parseClientCsv', () => {
  it('numbers rows as the spreadsheet does and skips blank ones', () => {
    const csv = parsed(
      '\uFEFFName,Email\r\nAda,ada@example.com\r\n,\r\n"Lovelace, Ltd","x@y.z"\r\n',
    );
    expect(csv.headers).toEqual(['Name', 'Email']);
    expect(csv.rows).toEqual([
      { number: 2, cells: ['Ada', 'ada@example.com'] },
      { number: 4, cells: ['Lovelace, Ltd', 'x@y.z'] },
    ]);
  });

  it('says what is wrong with a file without rows', () => {
    expect(parseClientCsv('')).toEqual({ error: expect.stringMatching(/no header row/) });
    expect(parseClientCsv('Name,Email\n')).toEqual({ error: expect.stringMatching(/no clients/) });
  });
});

describe('guessMapping', () => {
  it('maps headers by their usual names, each field once', () => {
    expect(
      guessMapping([
        'Client Name',
        'E-mail',
        'Organization',
        'Phone Number',
        'Mystery',
        'email',
        'Tags',
      ]),
    ).toEqual(['name', 'email', 'company', 'phone', null, null, 'tags']);
  });

  it('needs a name column and one column per field', () => {
    expect(mappingProblem(['email'])).toMatch(/name/);
    expect(mappingProblem(['name', 'email', 'email'])).toMatch(/Two columns go to Email/);
    expect(mappingProblem(['name', null])).toBeNull();
  });
});

describe('validateClientRows', () => {
  it("checks every row with the contract's create schema and reports row, field and message", () => {
    const csv = parsed(
      [
        'Name,Email,Status,Tags,Currency,Website',
        'Ada,ada@example.com,Lead,"design; retainer",,',
        ',not-an-email,maybe,,usd,ftp://x',
        'Grace,,,,gbp,https://grace.example',
      ].join('\n'),
    );
    const mapping = guessMapping(csv.headers);
    const check = validateClientRows(csv.rows, mapping, defaults);
    expect(check.valid.map((row) => row.row)).toEqual([2, 4]);
    expect(check.valid[0]?.input).toMatchObject({
      name: 'Ada',
      email: 'ada@example.com',
      status: 'lead',
      tags: ['design', 'retainer'],
      currency: 'EUR',
      website: null,
      workspaceId: WS,
    });
    expect(check.valid[1]?.input).toMatchObject({
      name: 'Grace',
      currency: 'GBP',
      status: 'active',
    });
    expect(check.skipped).toEqual([3]);
    expect(check.problems).toEqual([
      { row: 3, field: 'Name', message: 'Name is required' },
      { row: 3, field: 'Email', message: 'Enter a valid email address' },
      { row: 3, field: 'Status', message: 'Choose lead, active or inactive' },
      { row: 3, field: 'Website', message: expect.any(String) },
    ]);
  });
});

describe('importClients', () => {
  it('creates each row through the outbox, whole, and reports progress', async () => {
    const db = await createTestDatabase();
    const csv = parsed('Name,Company\nAda,Analytical\nGrace,Navy\n');
    const { valid } = validateClientRows(csv.rows, guessMapping(csv.headers), defaults);
    const progress: number[] = [];
    const queued: number[] = [];
    const result = await importClients(
      { db, userId: USER_ID, onQueued: () => queued.push(1) },
      valid,
      (done) => progress.push(done),
    );
    expect(result).toEqual({ imported: 2, failed: [] });
    expect(progress).toEqual([1, 2]);
    expect(queued).toHaveLength(2);
    expect((await db.clients.toArray()).map((client) => client.name).sort()).toEqual([
      'Ada',
      'Grace',
    ]);
    const outbox = await db.outbox.toArray();
    expect(outbox.map((entry) => entry.operation)).toEqual(['create-client', 'create-client']);
    db.close();
  });
});
