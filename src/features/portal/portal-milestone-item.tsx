/**
 * One milestone as the client sees it, with the client's sign-off: "Approve" (after a confirm
 * step, since the approval is recorded) or "Ask for changes" (with a comment the server requires).
 * The buttons go away once it is approved, so after an answer focus moves to the milestone itself
 * rather than being dropped on the page.
 */
import type { PortalMilestone } from '#contract/endpoints/client-portal.ts';
import { milestoneStatusWords, signOffStands } from '#contract/entities/milestone.ts';
import { Check, MessageSquareWarning } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { AnswerError, AnswerStepActions, OfflineAnswerNote } from './portal-answer-parts.tsx';
import { Button } from '../../ui/button.tsx';
import { formatFileDateTime } from '../files/file-format.ts';
import { formatAmount, formatDate, milestoneBadgeClasses } from '../milestones/milestone-format.ts';
import type { PortalActionResult } from './portal-action-result.ts';
import { FormTextArea } from '../../ui/form-text-area.tsx';

export type SignOffDecision = 'approved' | 'changes_requested';

export interface PortalMilestoneItemProps {
  milestone: PortalMilestone;
  /** No connection: the sign-off is disabled, with why. */
  offline: boolean;
  signOff: (decision: SignOffDecision, comment: string | null) => Promise<PortalActionResult>;
}

const MAX_COMMENT_CHARS = 5000;
export const SIGN_OFF_OFFLINE = 'You’re offline: sign-off needs a connection';

type Step = 'idle' | 'approve' | 'changes';
type FocusTarget = 'item' | 'approve' | 'changes' | 'confirm' | 'comment';

export function PortalMilestoneItem({ milestone, offline, signOff }: PortalMilestoneItemProps) {
  const id = useId();
  const itemRef = useRef<HTMLLIElement>(null);
  const approveRef = useRef<HTMLButtonElement>(null);
  const changesRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const commentRef = useRef<HTMLTextAreaElement>(null);
  const [step, setStep] = useState<Step>('idle');
  const [comment, setComment] = useState('');
  const [commentError, setCommentError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // Where focus goes once the step's controls have rendered (or gone).
  const [focusTarget, setFocusTarget] = useState<FocusTarget | null>(null);

  useEffect(() => {
    if (focusTarget === null) return;
    const refs = { item: itemRef, approve: approveRef, changes: changesRef, confirm: confirmRef };
    (focusTarget === 'comment' ? commentRef : refs[focusTarget]).current?.focus();
    setFocusTarget(null);
  }, [focusTarget]);

  const open = (next: Exclude<Step, 'idle'>) => {
    setStep(next);
    setError(null);
    setCommentError(undefined);
    setFocusTarget(next === 'approve' ? 'confirm' : 'comment');
  };

  const cancel = () => {
    // Back to the button that opened the step.
    setFocusTarget(step === 'changes' ? 'changes' : 'approve');
    setStep('idle');
    setError(null);
    setCommentError(undefined);
  };

  const send = async (decision: SignOffDecision) => {
    const text = comment.trim();
    if (decision === 'changes_requested') {
      if (text === '') {
        setCommentError('Say what should change');
        commentRef.current?.focus();
        return;
      }
      if (text.length > MAX_COMMENT_CHARS) {
        setCommentError('The comment must be at most 5,000 characters');
        commentRef.current?.focus();
        return;
      }
    }
    setPending(true);
    setError(null);
    setCommentError(undefined);
    const result = await signOff(decision, decision === 'approved' ? null : text);
    setPending(false);
    if (result.ok) {
      setStep('idle');
      setComment('');
      setFocusTarget('item');
      return;
    }
    setError(result.message);
    if (result.fieldErrors.comment) setCommentError(result.fieldErrors.comment);
  };

  const submitChanges = (event: FormEvent) => {
    event.preventDefault();
    void send('changes_requested');
  };

  // A record the milestone has moved on from (back in progress, a new round) is not shown.
  const record = signOffStands(milestone) ? milestone.signOff : null;
  const canSignOff = milestone.status !== 'approved';
  const offlineNoteId = `${id}-offline`;
  // The disabled buttons say why they are disabled.
  const describedBy = offline ? { 'aria-describedby': offlineNoteId } : {};
  const titleId = `${id}-title`;
  return (
    <li
      ref={itemRef}
      tabIndex={-1}
      className="flex flex-col gap-2 rounded-2xl border border-border bg-surface p-4 outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={titleId} className="min-w-0 font-semibold break-words text-fg">
          {milestone.title}
        </h3>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${milestoneBadgeClasses[milestone.status]}`}
        >
          {milestoneStatusWords[milestone.status]}
        </span>
      </div>
      {milestone.dueDate || milestone.amount !== null ? (
        <p className="flex flex-wrap gap-x-3 text-sm text-fg-muted">
          {milestone.dueDate ? <span>Due {formatDate(milestone.dueDate)}</span> : null}
          {milestone.amount !== null ? (
            <span>{formatAmount(milestone.amount, milestone.currency)}</span>
          ) : null}
        </p>
      ) : null}
      {milestone.description ? (
        <p className="text-sm whitespace-pre-line text-fg">{milestone.description}</p>
      ) : null}
      {record ? (
        <p className="text-sm break-words whitespace-pre-line text-fg-muted">
          {record.decision === 'approved'
            ? `Approved by ${record.by} on ${formatFileDateTime(record.at)}`
            : `Changes requested on ${formatFileDateTime(record.at)}${record.comment ? `: “${record.comment}”` : ''}`}
        </p>
      ) : null}

      {canSignOff && step === 'idle' ? (
        <div className="border-t border-border pt-3">
          <div className="flex flex-wrap gap-2">
            <Button
              ref={approveRef}
              onPress={() => open('approve')}
              isDisabled={offline}
              // Every milestone has these two buttons: each names its own.
              aria-label={`Approve ${milestone.title}`}
              {...describedBy}
            >
              <Check aria-hidden="true" size={16} /> Approve
            </Button>
            <Button
              ref={changesRef}
              variant="secondary"
              onPress={() => open('changes')}
              isDisabled={offline}
              aria-label={`Ask for changes to ${milestone.title}`}
              {...describedBy}
            >
              <MessageSquareWarning aria-hidden="true" size={16} /> Ask for changes
            </Button>
          </div>
        </div>
      ) : null}

      {canSignOff && step === 'approve' ? (
        <div
          role="group"
          onKeyDown={(event) => {
            if (event.key === 'Escape' && !pending) cancel();
          }}
          aria-labelledby={`${id}-confirm`}
          className="flex flex-col gap-3 rounded-xl bg-surface-muted p-3"
        >
          <p id={`${id}-confirm`} className="text-sm text-fg">
            <span className="font-semibold break-words">Approve {milestone.title}?</span> Your
            approval is recorded with the date.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button
              ref={confirmRef}
              isPending={pending}
              isDisabled={offline}
              onPress={() => void send('approved')}
            >
              <Check aria-hidden="true" size={16} /> Yes, approve
            </Button>
            <Button variant="secondary" isDisabled={pending} onPress={cancel}>
              Cancel
            </Button>
          </div>
        </div>
      ) : null}

      {canSignOff && step === 'changes' ? (
        <form
          noValidate
          onSubmit={submitChanges}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && !pending) cancel();
          }}
          aria-labelledby={`${id}-changes`}
          className="flex flex-col gap-3 rounded-xl bg-surface-muted p-3"
        >
          <p id={`${id}-changes`} className="text-sm font-semibold break-words text-fg">
            Ask for changes to {milestone.title}
          </p>
          <FormTextArea
            label="What should change?"
            name="comment"
            value={comment}
            onChange={(value) => {
              setComment(value);
              setCommentError(undefined);
            }}
            error={commentError}
            isRequired
            inputRef={commentRef}
          />
          <AnswerStepActions
            submitLabel="Send request for changes"
            pending={pending}
            offline={offline}
            onCancel={cancel}
          />
        </form>
      ) : null}

      {canSignOff && offline ? (
        <OfflineAnswerNote id={offlineNoteId}>{SIGN_OFF_OFFLINE}</OfflineAnswerNote>
      ) : null}
      <AnswerError error={error} />
    </li>
  );
}
