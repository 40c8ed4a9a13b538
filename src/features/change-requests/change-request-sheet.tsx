/**
 * The answer panel of one change request: what the client asked (description, wanted-by date),
 * the client's answer to a quote when there is one, the member's answer (a form, or read-only once
 * the client accepted), and for a change that goes ahead, the step that applies it to the
 * project's milestones and, when it costs something, the one that bills it. The request is read live, so a pull (the client accepting meanwhile)
 * shows at once.
 */
import { changeGoesAhead } from '#contract/entities/change-request.ts';
import { useLiveQuery } from '../../db/live-query.ts';
import { CircleCheck, ListChecks, Paperclip } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ApplyChangeResult } from '../../data/change-request-mutations.ts';
import type { LocalChangeRequest } from '../../data/change-request-queries.ts';
import { useSync } from '../workspace/sync-context.tsx';
import { Button } from '../../ui/button.tsx';
import { Sheet, SheetActions } from '../../ui/sheet.tsx';
import { TextLink } from '../../ui/text-link.tsx';
import { formatDate } from '../milestones/milestone-format.ts';
import { ApplyToMilestones } from './apply-to-milestones.tsx';
import { ChangeRequestBilling, changeIsBillable } from './change-request-billing.tsx';
import {
  AcceptedAnswer,
  ChangeRequestAnswerForm,
  type AnswerOutcome,
} from './change-request-answer-form.tsx';
import { formatTimestamp, formatTimestampDate } from './change-request-format.ts';
import { ChangeRequestStatusBadge } from './change-request-row.tsx';

export interface ChangeRequestSheetProps {
  request: LocalChangeRequest;
  projectName: string;
  /** Where the project lives (`/projects/{id}/{clientId}`), when it is on this device. */
  projectHref: string | null;
  clientName: string | null;
  askedBy: string;
  onClose: () => void;
  onAnswered: (outcome: AnswerOutcome) => void;
  onApplied: (result: ApplyChangeResult) => void;
}

export function ChangeRequestSheet(props: ChangeRequestSheetProps) {
  const { request, onClose } = props;
  const [step, setStepState] = useState<'answer' | 'apply'>('answer');
  // The first step keeps react-aria's focus on open; a step the member moved to takes it.
  const [moved, setMoved] = useState(false);
  const setStep = (next: 'answer' | 'apply') => {
    setMoved(true);
    setStepState(next);
  };
  return (
    <Sheet
      title={step === 'apply' ? `Apply “${request.title}” to milestones` : request.title}
      onClose={onClose}
      wide
    >
      {step === 'apply' ? (
        <StepFocus key="apply" focusHeading={moved}>
          <ApplyToMilestones
            request={request}
            projectName={props.projectName}
            onBack={() => setStep('answer')}
            onApplied={(result) => {
              setStep('answer');
              props.onApplied(result);
            }}
          />
        </StepFocus>
      ) : (
        <StepFocus key="answer" focusHeading={moved}>
          <AnswerStep {...props} onApply={() => setStep('apply')} />
        </StepFocus>
      )}
    </Sheet>
  );
}

/**
 * Moves focus to the panel's heading when a step opens (the button that opened it is gone), so a
 * screen reader reads the new title and Tab goes on from there.
 */
function StepFocus({ focusHeading, children }: { focusHeading: boolean; children: ReactNode }) {
  const marker = useRef<HTMLSpanElement>(null);
  // Read once, when the step mounts: not again while the member works in it.
  const onMount = useRef(focusHeading);
  useEffect(() => {
    if (!onMount.current) return;
    const heading = marker.current?.closest('[role="dialog"]')?.querySelector('h1, h2, h3');
    if (!(heading instanceof HTMLElement)) return;
    heading.tabIndex = -1;
    heading.classList.add('outline-none');
    heading.focus();
  }, []);
  return (
    <>
      <span ref={marker} hidden />
      {children}
    </>
  );
}

/**
 * The files the client attached, by name from this device's copy of the project's files (in the
 * From client folder); one removed since says so.
 */
function AttachedFiles({ ids, filesHref }: { ids: readonly string[]; filesHref: string | null }) {
  const { handle } = useSync();
  const files = useLiveQuery(() => handle.db.files.bulkGet([...ids]), [handle, ids.join()]);
  if (ids.length === 0) return null;
  const names = ids.map((_id, index) => files?.[index]?.name ?? null);
  const missing = names.filter((name) => name === null).length;
  return (
    <div className="flex flex-col gap-1 text-sm">
      <p className="font-medium text-fg">
        {ids.length === 1 ? '1 attached file' : `${ids.length} attached files`}
        {filesHref ? (
          <>
            {' · '}
            <TextLink href={filesHref}>Open the project’s files</TextLink>
          </>
        ) : null}
      </p>
      <ul aria-label="Attached files" className="flex flex-col gap-1">
        {names.flatMap((name, index) =>
          name === null
            ? []
            : [
                <li key={ids[index]} className="flex items-center gap-2 break-words text-fg">
                  <Paperclip aria-hidden="true" size={14} className="shrink-0 text-fg-muted" />
                  {name}
                </li>,
              ],
        )}
      </ul>
      {missing > 0 && files !== undefined ? (
        <p className="text-fg-muted">
          {missing === 1
            ? 'One file was deleted or is not on this device yet.'
            : `${missing} files were deleted or are not on this device yet.`}
        </p>
      ) : null}
    </div>
  );
}

function AnswerStep({
  request,
  projectName,
  projectHref,
  clientName,
  askedBy,
  onClose,
  onAnswered,
  onApply,
}: ChangeRequestSheetProps & { onApply: () => void }) {
  const decision = request.clientDecision;
  const goesAhead = changeGoesAhead(request.status);
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-2 text-sm text-fg-muted">
        <div className="flex flex-wrap items-center gap-2">
          <ChangeRequestStatusBadge status={request.status} />
          {request._pending > 0 ? <span>Not synced yet</span> : null}
        </div>
        <p className="break-words">
          {projectHref ? <TextLink href={projectHref}>{projectName}</TextLink> : projectName}
          {clientName ? ` · ${clientName}` : ''}
        </p>
        <p>
          Asked by {askedBy} on {formatTimestampDate(request.createdAt)}
        </p>
      </div>

      <section aria-labelledby="change-request-asked" className="flex flex-col gap-2">
        <h3 id="change-request-asked" className="font-semibold text-fg">
          What was asked
        </h3>
        <p className="text-sm break-words whitespace-pre-line text-fg">
          {request.description ?? 'No description.'}
        </p>
        <p className="text-sm text-fg-muted">
          {request.desiredDate
            ? `Wanted by ${formatDate(request.desiredDate)}`
            : 'No date was asked for.'}
        </p>
        <AttachedFiles
          ids={request.attachmentFileIds ?? []}
          filesHref={projectHref ? `${projectHref}?tab=files` : null}
        />
      </section>

      {decision ? (
        <section
          aria-labelledby="change-request-decision"
          className="flex flex-col gap-1 rounded-xl bg-surface-muted p-4 text-sm"
        >
          <h3 id="change-request-decision" className="font-semibold text-fg">
            {request.status === 'accepted' || request.status === 'quote_declined'
              ? "The client's answer"
              : "The client's answer to an earlier quote"}
          </h3>
          <p className="text-fg">
            <span className="font-medium">
              {decision.decision === 'accepted' ? 'Accepted' : 'Declined'} by {decision.by}
            </span>{' '}
            <span className="text-fg-muted">on {formatTimestamp(decision.at)}</span>
          </p>
          {decision.comment ? (
            <p className="break-words whitespace-pre-line text-fg">“{decision.comment}”</p>
          ) : null}
        </section>
      ) : null}

      {request.status === 'accepted' ? (
        <AcceptedAnswer request={request} />
      ) : (
        <ChangeRequestAnswerForm request={request} onAnswered={onAnswered} />
      )}

      {goesAhead ? (
        <section
          aria-labelledby="change-request-apply"
          className="flex flex-col gap-3 rounded-xl border border-border p-4"
        >
          <h3 id="change-request-apply" className="font-semibold text-fg">
            Milestones
          </h3>
          {request.appliedAt !== null ? (
            <p className="inline-flex items-center gap-2 text-sm text-fg">
              <CircleCheck aria-hidden="true" size={16} className="shrink-0 text-success" />
              Applied on {formatTimestampDate(request.appliedAt)}
            </p>
          ) : (
            <>
              <p className="text-sm text-fg-muted">
                This change goes ahead. Add it to the project's milestones and move their due dates
                by its timeline impact.
              </p>
              <Button variant="secondary" onPress={onApply} className="w-full sm:w-fit">
                <ListChecks aria-hidden="true" size={16} />
                Apply to milestones…
              </Button>
            </>
          )}
        </section>
      ) : null}

      {changeIsBillable(request) ? <ChangeRequestBilling request={request} /> : null}

      <SheetActions>
        <Button variant="ghost" onPress={onClose}>
          Close
        </Button>
      </SheetActions>
    </div>
  );
}
