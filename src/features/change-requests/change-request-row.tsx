/**
 * One change request in the center's list: what was asked, for which project and client, by whom,
 * where it stands, and what it costs and moves. The whole card opens the answer panel (the
 * title's button stretches over it), so there is one tab stop per request.
 */
import {
  changeRequestStatusWords,
  type ChangeRequestStatus,
} from '#contract/entities/change-request.ts';
import { CircleCheck, CloudUpload } from 'lucide-react';
import type { ReactNode } from 'react';
import type { LocalChangeRequest } from '../../data/change-request-queries.ts';
import { formatDate } from '../milestones/milestone-format.ts';
import {
  changeRequestBadgeClasses,
  formatCostImpact,
  formatScheduleDays,
  formatTimestampDate,
} from './change-request-format.ts';

/** The id of a row's open button: focus returns there, or moves on to the next row. */
export function changeRequestButtonId(id: string): string {
  return `change-request-${id}-open`;
}

export function ChangeRequestStatusBadge({ status }: { status: ChangeRequestStatus }) {
  return (
    <span
      className={`inline-flex shrink-0 items-center rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${changeRequestBadgeClasses[status]}`}
    >
      {changeRequestStatusWords[status]}
    </span>
  );
}

export interface ChangeRequestRowProps {
  request: LocalChangeRequest;
  projectName: string;
  clientName: string | null;
  askedBy: string;
  onOpen: () => void;
}

export function ChangeRequestRow({
  request,
  projectName,
  clientName,
  askedBy,
  onOpen,
}: ChangeRequestRowProps) {
  const { id, title, status, costImpact, currency, scheduleImpactDays, desiredDate } = request;
  const headingId = `change-request-${id}-title`;
  return (
    <li
      aria-labelledby={headingId}
      className="relative flex flex-col gap-3 rounded-2xl border border-border bg-surface p-4 hover:border-border-strong has-[button:focus-visible]:outline-2 has-[button:focus-visible]:outline-offset-2 has-[button:focus-visible]:outline-ring sm:p-5"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <h2 id={headingId} className="font-semibold break-words text-fg">
            <button
              id={changeRequestButtonId(id)}
              type="button"
              aria-haspopup="dialog"
              onClick={onOpen}
              className="cursor-pointer text-left outline-none after:absolute after:inset-0 after:rounded-2xl hover:underline hover:underline-offset-4"
            >
              {title}
            </button>
          </h2>
          <p className="mt-0.5 text-sm break-words text-fg-muted">
            {projectName}
            {clientName ? ` · ${clientName}` : ''}
          </p>
        </div>
        <ChangeRequestStatusBadge status={status} />
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3 lg:grid-cols-5">
        <Fact label="Cost">
          {costImpact === null ? (
            <span className="text-fg-muted">Not priced</span>
          ) : (
            <span className="font-medium tabular-nums">
              {formatCostImpact(costImpact, currency)}
            </span>
          )}
        </Fact>
        <Fact label="Timeline">
          {scheduleImpactDays === null ? (
            <span className="text-fg-muted">Not estimated</span>
          ) : (
            <span className="tabular-nums">{formatScheduleDays(scheduleImpactDays)}</span>
          )}
        </Fact>
        <Fact label="Wanted by">
          {desiredDate ? formatDate(desiredDate) : <span className="text-fg-muted">No date</span>}
        </Fact>
        <Fact label="Asked by">{askedBy}</Fact>
        <Fact label="Received">{formatTimestampDate(request.createdAt)}</Fact>
      </dl>
      {request.appliedAt !== null || request._pending > 0 ? (
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-fg-muted">
          {request.appliedAt !== null ? (
            <span className="inline-flex items-center gap-1">
              <CircleCheck aria-hidden="true" size={14} className="text-success" />
              Applied on {formatTimestampDate(request.appliedAt)}
            </span>
          ) : null}
          {request._pending > 0 ? (
            <span className="inline-flex items-center gap-1">
              <CloudUpload aria-hidden="true" size={14} />
              Not synced yet
            </span>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-fg-muted">{label}</dt>
      <dd className="break-words text-fg">{children}</dd>
    </div>
  );
}
