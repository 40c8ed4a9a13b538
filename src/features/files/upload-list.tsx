/**
 * Uploads of this project still on their way: each with its state in words ("Waiting for the
 * network", "Uploading 42 %", "Failed: <the server's reason>"), a named progress bar, and what
 * can be done to it (pause, resume, retry, cancel; no Retry where trying again can only be
 * refused again, as for an empty file). A refusal for the plan's storage names the limit and
 * links to upgrading. A done upload shows until its file row arrives, then the file takes its
 * place in the list.
 */
import { CircleAlert, CircleCheck, Pause, Play, RotateCw, X } from 'lucide-react';
import { ProgressBar } from 'react-aria-components';
import { getPlan, type PlanLimitRefusal } from '#contract/entities/plan.ts';
import type { StoredUpload } from '../../files/upload-queue.ts';
import type { UploadProgress } from '../../files/upload-progress.ts';
import { Button } from '../../ui/button.tsx';
import { UpgradePlanLink } from '../billing/upgrade-plan-link.tsx';
import {
  fileIconOf,
  formatBytes,
  isPermanentRefusal,
  uploadPhase,
  uploadPhaseText,
} from './file-format.ts';

/** A refusal for the plan's storage, in words naming the limit ("1 GB" as the plans say it). */
export function storageFullText({ plan, max, used }: PlanLimitRefusal): string {
  const limit = `${getPlan(plan).name} plan’s ${formatBytes(max)} of storage`;
  return used === undefined || used >= max
    ? `Failed: Your ${limit} is full.`
    : `Failed: This file doesn’t fit in your ${limit} (${formatBytes(used)} used).`;
}

export interface UploadListProps {
  uploads: readonly StoredUpload[];
  progressOf: (id: string) => UploadProgress | undefined;
  online: boolean;
  now: number;
  onPause: (entry: StoredUpload) => void;
  onResume: (entry: StoredUpload) => void;
  onRetry: (entry: StoredUpload) => void;
  onCancel: (entry: StoredUpload) => void;
}

export function UploadList({
  uploads,
  progressOf,
  online,
  now,
  onPause,
  onResume,
  onRetry,
  onCancel,
}: UploadListProps) {
  if (uploads.length === 0) return null;
  return (
    <section aria-labelledby="uploads-heading" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id="uploads-heading" className="text-sm font-semibold text-fg">
          Uploads
        </h3>
      </div>
      <ul className="flex flex-col gap-2">
        {uploads.map((entry) => {
          const phase = uploadPhase(entry, progressOf(entry.id), online, now);
          const storageFull =
            phase.kind === 'failed' && entry.planLimit?.limit === 'storageBytes'
              ? entry.planLimit
              : null;
          const text = storageFull ? storageFullText(storageFull) : uploadPhaseText(phase);
          const Icon = fileIconOf(entry.type, entry.name);
          const percent = 'percent' in phase ? phase.percent : phase.kind === 'done' ? 100 : 0;
          return (
            <li
              key={entry.id}
              data-upload-id={entry.id}
              className={`flex flex-col gap-2 rounded-xl border bg-surface p-3 ${phase.kind === 'failed' ? 'border-danger/50' : 'border-border'}`}
            >
              <div className="flex items-center gap-3">
                <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-surface-muted text-fg-muted">
                  <Icon aria-hidden="true" size={20} />
                </span>
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium text-fg" title={entry.name}>
                    {entry.name}
                  </p>
                  <p
                    className={`flex items-center gap-1 text-sm ${phase.kind === 'failed' ? 'text-danger' : 'text-fg-muted'}`}
                  >
                    {phase.kind === 'failed' ? (
                      <CircleAlert aria-hidden="true" size={14} className="shrink-0" />
                    ) : phase.kind === 'done' ? (
                      <CircleCheck aria-hidden="true" size={14} className="shrink-0 text-success" />
                    ) : null}
                    <span className="min-w-0 break-words">
                      {text}
                      {phase.kind === 'failed' ? '' : ` · ${formatBytes(entry.size)}`}
                      {storageFull ? (
                        <>
                          {' '}
                          <UpgradePlanLink />
                        </>
                      ) : null}
                    </span>
                  </p>
                </div>
                <div className="flex shrink-0 items-center">
                  {phase.kind === 'failed' ? (
                    isPermanentRefusal(entry) ? null : (
                      <Button
                        variant="secondary"
                        aria-label={`Retry ${entry.name}`}
                        onPress={() => onRetry(entry)}
                      >
                        <RotateCw aria-hidden="true" size={16} />
                        Retry
                      </Button>
                    )
                  ) : phase.kind === 'paused' ? (
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={`Resume ${entry.name}`}
                      onPress={() => onResume(entry)}
                    >
                      <Play aria-hidden="true" size={16} />
                    </Button>
                  ) : phase.kind !== 'done' ? (
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={`Pause ${entry.name}`}
                      onPress={() => onPause(entry)}
                    >
                      <Pause aria-hidden="true" size={16} />
                    </Button>
                  ) : null}
                  {phase.kind !== 'done' ? (
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={
                        phase.kind === 'failed' ? `Remove ${entry.name}` : `Cancel ${entry.name}`
                      }
                      onPress={() => onCancel(entry)}
                    >
                      <X aria-hidden="true" size={16} />
                    </Button>
                  ) : null}
                </div>
              </div>
              {phase.kind === 'failed' ? null : (
                <ProgressBar
                  aria-label={`Upload of ${entry.name}`}
                  value={percent}
                  valueLabel={text}
                  className="h-1.5 overflow-hidden rounded-full bg-surface-muted"
                >
                  <div
                    className={`h-full rounded-full transition-[width] motion-reduce:transition-none ${phase.kind === 'uploading' || phase.kind === 'done' ? 'bg-brand' : 'bg-border-strong'}`}
                    style={{ width: `${percent}%` }}
                  />
                </ProgressBar>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
