/**
 * Creates the checked rows through the app's normal client create (src/data/client-mutations.ts:
 * the contract's schema, the row and its outbox entry in one transaction, sync woken), one row at
 * a time: a row is written whole or not at all, and rows written before a failure stay (each is
 * a client the user asked for). Works offline; the clients reach the server with the next sync.
 * Clients have no plan limit (contract/entities/plan.ts: unlimited on every plan).
 */
import { createClient } from '../../data/client-mutations.ts';
import type { LocalWriteContext } from '../../db/local-write.ts';
import type { RowProblem, ValidRow } from './validate-client-rows.ts';

export interface ImportResult {
  imported: number;
  failed: RowProblem[];
}

const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export async function importClients(
  ctx: LocalWriteContext,
  rows: readonly ValidRow[],
  onProgress?: (done: number, total: number) => void,
): Promise<ImportResult> {
  let imported = 0;
  const failed: RowProblem[] = [];
  for (const [index, { row, input }] of rows.entries()) {
    try {
      await createClient(ctx, input);
      imported += 1;
    } catch (error) {
      failed.push({
        row,
        field: 'Row',
        message: error instanceof Error ? error.message : 'This row could not be saved.',
      });
    }
    onProgress?.(index + 1, rows.length);
    // Let the progress bar paint now and then without slowing a small import down.
    if ((index + 1) % 25 === 0) await pause();
  }
  return { imported, failed };
}
