/**
 * Settings > Data > Import clients: pick a CSV (refused before reading when over 5 MB or not CSV),
 * see its first rows, say which column fills which client field (guessed from the headers), see
 * every row's problems with its row number, then import the rows that pass, with progress. Rows
 * are created through the app's normal client create (import-clients.ts), so they work offline
 * and sync like clients made by hand.
 */
import { Upload } from 'lucide-react';
import { useMemo, useState } from 'react';
import { FileTrigger } from 'react-aria-components';
import { newId } from '../../data/mutation-base.ts';
import type { LocalWorkspace } from '../../db/app-database.ts';
import { Button } from '../../ui/button.tsx';
import { SelectField, type SelectOption } from '../../ui/select-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { FormAlert } from '../auth/form-alert.tsx';
import { ProgressBar } from '../milestones/progress-bar.tsx';
import { SettingsSection } from '../settings/settings-section.tsx';
import { useWriteContext } from '../workspace/sync-context.tsx';
import {
  clientFieldLabel,
  clientFields,
  guessMapping,
  mappingProblem,
  type ClientField,
} from './client-import-fields.ts';
import { csvFileProblem } from './csv-file-check.ts';
import { importClients, type ImportResult } from './import-clients.ts';
import { parseClientCsv, type ParsedCsv } from './parse-client-csv.ts';
import { validateClientRows, type RowProblem } from './validate-client-rows.ts';

const PREVIEW_ROWS = 5;
const PROBLEMS_SHOWN = 100;
const SKIP = 'skip';
type Choice = ClientField | typeof SKIP;

const choiceOptions: SelectOption<Choice>[] = [
  { id: SKIP, label: 'Don’t import' },
  ...clientFields.map((field) => ({ id: field, label: clientFieldLabel(field) })),
];

type Step =
  | { status: 'pick'; problem: string | null }
  | { status: 'reading'; fileName: string }
  | { status: 'map'; fileName: string; csv: ParsedCsv; mapping: (ClientField | null)[] }
  | { status: 'importing'; fileName: string; done: number; total: number }
  | {
      status: 'done';
      fileName: string;
      result: ImportResult;
      skipped: number[];
      problems: RowProblem[];
    };

/** The file's text without a second copy in memory (FileReader works in every browser). */
function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsText(file);
  });
}

export function ClientImportSection({ workspace }: { workspace: LocalWorkspace }) {
  const ctx = useWriteContext();
  const [step, setStep] = useState<Step>({ status: 'pick', problem: null });

  const pick = async (file: File | undefined) => {
    if (!file) return;
    const problem = csvFileProblem(file);
    if (problem) {
      setStep({ status: 'pick', problem });
      return;
    }
    setStep({ status: 'reading', fileName: file.name });
    try {
      const parsed = parseClientCsv(await readText(file));
      if ('error' in parsed) {
        setStep({ status: 'pick', problem: `${file.name}: ${parsed.error}` });
        return;
      }
      setStep({
        status: 'map',
        fileName: file.name,
        csv: parsed,
        mapping: guessMapping(parsed.headers),
      });
    } catch {
      setStep({ status: 'pick', problem: `"${file.name}" could not be read. Try again.` });
    }
  };

  return (
    <SettingsSection
      title="Import clients from a spreadsheet"
      description="Save your client list as CSV (one client per row, the first row naming the columns), up to 5 MB. You choose which column fills which field and see any problems before anything is added."
      icon={<Upload aria-hidden="true" size={20} />}
    >
      {step.status === 'pick' ? (
        <div className="flex flex-col gap-4">
          {step.problem ? <FormAlert>{step.problem}</FormAlert> : null}
          <Picker onPick={(file) => void pick(file)} label="Choose a CSV file" />
        </div>
      ) : step.status === 'reading' ? (
        <p role="status" className="flex items-center gap-2 text-fg-muted">
          <Spinner size="small" /> Reading {step.fileName}...
        </p>
      ) : step.status === 'map' ? (
        <Mapping
          step={step}
          workspace={workspace}
          onMappingChange={(mapping) => setStep({ ...step, mapping })}
          onCancel={() => setStep({ status: 'pick', problem: null })}
          onImport={async (rows, skipped, problems) => {
            setStep({ status: 'importing', fileName: step.fileName, done: 0, total: rows.length });
            const result = await importClients(ctx, rows, (done, total) =>
              setStep({ status: 'importing', fileName: step.fileName, done, total }),
            );
            setStep({ status: 'done', fileName: step.fileName, result, skipped, problems });
          }}
        />
      ) : step.status === 'importing' ? (
        <ProgressBar
          label={`Importing clients from ${step.fileName}`}
          value={step.total === 0 ? 100 : Math.round((step.done / step.total) * 100)}
          valueText={`${step.done} of ${step.total}`}
        />
      ) : (
        <Done step={step} onAgain={() => setStep({ status: 'pick', problem: null })} />
      )}
    </SettingsSection>
  );
}

function Picker({ onPick, label }: { onPick: (file: File | undefined) => void; label: string }) {
  return (
    <div>
      <FileTrigger
        acceptedFileTypes={['.csv', 'text/csv']}
        onSelect={(list) => onPick(list ? [...list][0] : undefined)}
      >
        <Button variant="secondary">
          <Upload aria-hidden="true" size={16} /> {label}
        </Button>
      </FileTrigger>
    </div>
  );
}

function Mapping({
  step,
  workspace,
  onMappingChange,
  onCancel,
  onImport,
}: {
  step: Extract<Step, { status: 'map' }>;
  workspace: LocalWorkspace;
  onMappingChange: (mapping: (ClientField | null)[]) => void;
  onCancel: () => void;
  onImport: (
    rows: ReturnType<typeof validateClientRows>['valid'],
    skipped: number[],
    problems: RowProblem[],
  ) => Promise<void>;
}) {
  const ctx = useWriteContext();
  const { csv, mapping } = step;
  const problem = mappingProblem(mapping);
  const check = useMemo(
    () =>
      problem
        ? null
        : validateClientRows(csv.rows, mapping, {
            workspaceId: workspace.id,
            currency: workspace.currency,
            newId: () => newId(ctx),
          }),
    [csv, mapping, problem, workspace.id, workspace.currency, ctx],
  );
  const mapped = mapping.flatMap((field, column) => (field ? [{ field, column }] : []));
  const ready = check?.valid.length ?? 0;

  return (
    <div className="flex flex-col gap-6">
      <p className="text-sm text-fg">
        <strong>{step.fileName}</strong>:{' '}
        {csv.rows.length === 1 ? '1 row' : `${csv.rows.length.toLocaleString()} rows`} under a
        header of {csv.headers.length} columns.
      </p>

      <fieldset className="flex flex-col gap-3">
        <legend className="mb-3 text-sm font-semibold text-fg">
          Which field each column fills
        </legend>
        <div className="grid gap-4 sm:grid-cols-2">
          {csv.headers.map((header, column) => (
            <SelectField<Choice>
              key={`${column}-${header}`}
              label={header}
              description={
                csv.rows[0]?.cells[column] ? `For example: ${csv.rows[0].cells[column]}` : undefined
              }
              options={choiceOptions}
              value={mapping[column] ?? SKIP}
              onChange={(choice) =>
                onMappingChange(
                  mapping.map((field, index) =>
                    index === column ? (choice === SKIP ? null : choice) : field,
                  ),
                )
              }
            />
          ))}
        </div>
        {problem ? <FormAlert>{problem}</FormAlert> : null}
      </fieldset>

      {mapped.length > 0 ? (
        <div className="flex flex-col gap-2">
          <h3 className="text-sm font-semibold text-fg" id="import-preview-heading">
            Preview of the first {Math.min(PREVIEW_ROWS, csv.rows.length)} rows
          </h3>
          <div
            className="overflow-x-auto rounded-xl border border-border"
            tabIndex={0}
            role="region"
            aria-labelledby="import-preview-heading"
          >
            <table className="w-full text-left text-sm">
              <thead className="bg-surface-muted text-fg-muted">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Row
                  </th>
                  {mapped.map(({ field }) => (
                    <th key={field} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                      {clientFieldLabel(field)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {csv.rows.slice(0, PREVIEW_ROWS).map((row) => (
                  <tr key={row.number} className="border-t border-border">
                    <td className="px-3 py-2 text-fg-muted tabular-nums">{row.number}</td>
                    {mapped.map(({ field, column }) => (
                      <td key={field} className="max-w-60 truncate px-3 py-2 text-fg">
                        {row.cells[column] ?? ''}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}

      {check ? (
        <CheckSummary problems={check.problems} skipped={check.skipped} ready={ready} />
      ) : null}

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onPress={onCancel}>
          Choose another file
        </Button>
        <Button
          isDisabled={!check || ready === 0}
          onPress={() => {
            if (check) void onImport(check.valid, check.skipped, check.problems);
          }}
        >
          {ready === 1 ? 'Import 1 client' : `Import ${ready.toLocaleString()} clients`}
        </Button>
      </div>
    </div>
  );
}

function CheckSummary({
  problems,
  skipped,
  ready,
}: {
  problems: RowProblem[];
  skipped: number[];
  ready: number;
}) {
  return (
    <div className="flex flex-col gap-3">
      {skipped.length === 0 ? (
        <FormAlert tone="success">
          {ready === 1 ? 'The row is ready' : `All ${ready.toLocaleString()} rows are ready`} to
          import.
        </FormAlert>
      ) : (
        <FormAlert tone="info">
          {ready.toLocaleString()} {ready === 1 ? 'row is' : 'rows are'} ready;{' '}
          {skipped.length === 1 ? '1 row has' : `${skipped.length.toLocaleString()} rows have`}{' '}
          problems and will be skipped unless you fix them in the file and pick it again.
        </FormAlert>
      )}
      {problems.length > 0 ? <ProblemTable problems={problems} title="Problems by row" /> : null}
    </div>
  );
}

function ProblemTable({ problems, title }: { problems: RowProblem[]; title: string }) {
  const shown = problems.slice(0, PROBLEMS_SHOWN);
  return (
    <div className="flex flex-col gap-2">
      <div
        className="max-h-80 overflow-auto rounded-xl border border-border"
        tabIndex={0}
        role="region"
        aria-label={title}
      >
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{title}</caption>
          <thead className="sticky top-0 bg-surface-muted text-fg-muted">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">
                Row
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Field
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Problem
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((problem, index) => (
              <tr key={`${problem.row}-${index}`} className="border-t border-border">
                <td className="px-3 py-2 text-fg-muted tabular-nums">{problem.row}</td>
                <td className="px-3 py-2 text-fg whitespace-nowrap">{problem.field}</td>
                <td className="px-3 py-2 text-fg">{problem.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {problems.length > shown.length ? (
        <p className="text-sm text-fg-muted">
          And {(problems.length - shown.length).toLocaleString()} more problems.
        </p>
      ) : null}
    </div>
  );
}

function rowList(rows: readonly number[]): string {
  const shown = rows.slice(0, 20).join(', ');
  return rows.length > 20 ? `${shown} and ${rows.length - 20} more` : shown;
}

function Done({ step, onAgain }: { step: Extract<Step, { status: 'done' }>; onAgain: () => void }) {
  const { result } = step;
  const skipped = [...step.skipped, ...result.failed.map((failure) => failure.row)].sort(
    (a, b) => a - b,
  );
  const problems = [...step.problems, ...result.failed].sort((a, b) => a.row - b.row);
  return (
    <div className="flex flex-col gap-4">
      <FormAlert tone={result.imported > 0 ? 'success' : 'info'}>
        <p>
          Imported{' '}
          {result.imported === 1 ? '1 client' : `${result.imported.toLocaleString()} clients`} from{' '}
          {step.fileName}. They sync with your other devices as usual.
        </p>
        {skipped.length > 0 ? (
          <p className="mt-1">
            {skipped.length === 1
              ? `Skipped row ${rowList(skipped)} (its problems are below).`
              : `Skipped rows ${rowList(skipped)} (their problems are below).`}
          </p>
        ) : null}
      </FormAlert>
      {problems.length > 0 ? <ProblemTable problems={problems} title="Skipped rows" /> : null}
      <div>
        <Button variant="secondary" onPress={onAgain}>
          Import another file
        </Button>
      </div>
    </div>
  );
}
