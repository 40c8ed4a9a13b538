/**
 * One change request in the portal: what the client asked, the member's answer (cost and timeline
 * impact, a note) and the client's own answer to a quote. A quoted request offers "Accept quote"
 * and "Decline quote", each with an optional comment before it is sent. A request still on the
 * device (portal-outbox.ts) says it waits to be sent, or, when the server refused it, why, with
 * "Remove".
 */
import type { PortalChangeRequest, PortalFile } from '#contract/endpoints/client-portal.ts';
import { changeRequestStatusWords } from '#contract/entities/change-request.ts';
import { Check, CloudOff, Paperclip, Trash2, X } from 'lucide-react';
import { useEffect, type ReactNode, useId, useRef, useState, type FormEvent } from 'react';
import { AnswerError, AnswerStepActions, OfflineAnswerNote } from './portal-answer-parts.tsx';
import { Button } from '../../ui/button.tsx';
import { formatFileDateTime } from '../files/file-format.ts';
import { formatDate } from '../milestones/milestone-format.ts';
import {
  changeRequestBadgeClasses,
  costImpactWords,
  scheduleImpactWords,
} from './change-request-words.ts';
import type { PortalActionResult } from './portal-action-result.ts';
import type { PortalOutboxEntry } from './portal-outbox.ts';
import { FormTextArea } from '../../ui/form-text-area.tsx';

export type QuoteDecision = 'accepted' | 'declined';

export const DECIDE_OFFLINE = 'You’re offline: answering a quote needs a connection';
export const WAITING_TO_SEND = 'Waiting to send: it will be sent when you’re back online';

const itemClassName =
  'flex flex-col gap-2 rounded-2xl border border-border bg-surface p-4 outline-none focus-visible:ring-2 focus-visible:ring-ring';

function Badge({ className, children }: { className: string; children: string }) {
  return (
    <span
      className={`rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${className}`}
    >
      {children}
    </span>
  );
}

function Asked({
  description,
  desiredDate,
  askedAt,
}: {
  description: string | null | undefined;
  desiredDate: string | null | undefined;
  askedAt: string;
}) {
  return (
    <>
      <p className="flex flex-wrap gap-x-3 text-sm text-fg-muted">
        <span>{askedAt}</span>
        {desiredDate ? <span>Wanted by {formatDate(desiredDate)}</span> : null}
      </p>
      {description ? (
        <p className="text-sm break-words whitespace-pre-line text-fg">{description}</p>
      ) : null}
    </>
  );
}

/** A request's attachments the client can still see, each a link to its download. */
function AttachedFiles({
  ids,
  files,
  openFile,
}: {
  ids: readonly string[];
  files: readonly PortalFile[];
  openFile: (file: PortalFile) => void;
}) {
  const attached = ids.flatMap((fileId) => files.filter((file) => file.id === fileId));
  if (attached.length === 0) return null;
  return (
    <ul aria-label="Attachments" className="flex flex-wrap gap-2">
      {attached.map((file) => (
        <li key={file.id}>
          <Button
            variant="ghost"
            aria-label={`Download ${file.name}`}
            onPress={() => openFile(file)}
          >
            <Paperclip aria-hidden="true" size={14} />
            <span className="max-w-[16rem] truncate">{file.name}</span>
          </Button>
        </li>
      ))}
    </ul>
  );
}

export interface PortalRequestRowProps {
  /** Still on the device: drawn dashed. */
  waiting: boolean;
  /** The list moves focus here (a request just added, or just answered). */
  takeFocus: boolean;
  onFocusTaken: () => void;
  children: ReactNode;
}

/**
 * The list item of a request. It stays the same element when a waiting request is sent and its
 * content changes, so focus on it survives that change.
 */
export function PortalRequestRow({
  waiting,
  takeFocus,
  onFocusTaken,
  children,
}: PortalRequestRowProps) {
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (!takeFocus) return;
    ref.current?.focus();
    onFocusTaken();
  }, [onFocusTaken, takeFocus]);
  return (
    <li ref={ref} tabIndex={-1} className={`${itemClassName} ${waiting ? 'border-dashed' : ''}`}>
      {children}
    </li>
  );
}

export interface PortalChangeRequestItemProps {
  changeRequest: PortalChangeRequest;
  /** Who wrote down a request a member added for the client (the workspace's name). */
  workspaceName: string;
  offline: boolean;
  /** The project's files the client sees, to name the request's attachments. */
  files: readonly PortalFile[];
  openFile: (file: PortalFile) => void;
  /** Focus the request's row: its buttons are gone once the quote is answered. */
  focusRow: () => void;
  decide: (decision: QuoteDecision, comment: string | null) => Promise<PortalActionResult>;
}

type FocusTarget = 'row' | 'accept' | 'decline' | 'comment';

export function PortalChangeRequestItem({
  changeRequest: request,
  workspaceName,
  offline,
  files,
  openFile,
  decide,
  focusRow,
}: PortalChangeRequestItemProps) {
  const id = useId();
  const acceptRef = useRef<HTMLButtonElement>(null);
  const declineRef = useRef<HTMLButtonElement>(null);
  const commentRef = useRef<HTMLTextAreaElement>(null);
  const [step, setStep] = useState<QuoteDecision | null>(null);
  const [comment, setComment] = useState('');
  const [commentError, setCommentError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [focusTarget, setFocusTarget] = useState<FocusTarget | null>(null);

  useEffect(() => {
    if (focusTarget === null) return;
    if (focusTarget === 'row') focusRow();
    else
      ({ accept: acceptRef, decline: declineRef, comment: commentRef })[
        focusTarget
      ].current?.focus();
    setFocusTarget(null);
  }, [focusRow, focusTarget]);

  const open = (decision: QuoteDecision) => {
    setStep(decision);
    setError(null);
    setCommentError(undefined);
    setFocusTarget('comment');
  };

  const cancel = () => {
    setFocusTarget(step === 'declined' ? 'decline' : 'accept');
    setStep(null);
    setError(null);
    setCommentError(undefined);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!step) return;
    const text = comment.trim();
    if (text.length > 5000) {
      setCommentError('The comment must be at most 5,000 characters');
      commentRef.current?.focus();
      return;
    }
    setPending(true);
    setError(null);
    const result = await decide(step, text === '' ? null : text);
    setPending(false);
    if (result.ok) {
      setStep(null);
      setComment('');
      // The buttons are gone with the quote: the request itself keeps focus.
      setFocusTarget('row');
      return;
    }
    setError(result.message);
    if (result.fieldErrors.comment) setCommentError(result.fieldErrors.comment);
  };

  const quoted = request.status === 'quoted';
  // Accepted or declined, what was answered was a quote.
  const wasQuoted = quoted || request.clientDecision !== null;
  const answered =
    request.costImpact !== null || request.scheduleImpactDays !== null || request.answer;
  const decision = request.clientDecision;
  const offlineNoteId = `${id}-offline`;
  // The disabled buttons say why they are disabled.
  const describedBy = offline ? { 'aria-describedby': offlineNoteId } : {};
  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="min-w-0 font-semibold break-words text-fg">{request.title}</h3>
        <Badge className={changeRequestBadgeClasses[request.status]}>
          {changeRequestStatusWords[request.status]}
        </Badge>
      </div>
      <Asked
        description={request.description}
        desiredDate={request.desiredDate}
        askedAt={`${request.source === 'portal' ? 'Asked by you' : `Added by ${workspaceName}`} on ${formatFileDateTime(request.createdAt)}`}
      />
      <AttachedFiles ids={request.attachmentFileIds} files={files} openFile={openFile} />
      {answered ? (
        <div className="flex flex-col gap-2 rounded-xl bg-surface-muted p-3">
          <p className="text-sm font-semibold text-fg">{wasQuoted ? 'The quote' : 'The answer'}</p>
          {request.costImpact !== null || request.scheduleImpactDays !== null ? (
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              {request.costImpact !== null ? (
                <>
                  <dt className="text-fg-muted">Cost</dt>
                  <dd className="font-semibold text-fg">
                    {costImpactWords(request.costImpact, request.currency)}
                  </dd>
                </>
              ) : null}
              {request.scheduleImpactDays !== null ? (
                <>
                  <dt className="text-fg-muted">Timeline</dt>
                  <dd className="font-semibold text-fg">
                    {scheduleImpactWords(request.scheduleImpactDays)}
                  </dd>
                </>
              ) : null}
            </dl>
          ) : null}
          {request.answer ? (
            <p className="text-sm break-words whitespace-pre-line text-fg">{request.answer}</p>
          ) : null}
        </div>
      ) : null}
      {decision ? (
        <p className="text-sm break-words text-fg-muted">
          {decision.decision === 'accepted' ? 'You accepted the quote' : 'You declined the quote'}{' '}
          on {formatFileDateTime(decision.at)}
          {decision.comment ? `: “${decision.comment}”` : ''}
        </p>
      ) : null}

      {quoted && step === null ? (
        <div className="flex flex-wrap gap-2 border-t border-border pt-3">
          <Button
            ref={acceptRef}
            onPress={() => open('accepted')}
            isDisabled={offline}
            {...describedBy}
          >
            <Check aria-hidden="true" size={16} /> Accept quote
          </Button>
          <Button
            ref={declineRef}
            variant="secondary"
            onPress={() => open('declined')}
            isDisabled={offline}
            {...describedBy}
          >
            <X aria-hidden="true" size={16} /> Decline quote
          </Button>
        </div>
      ) : null}

      {quoted && step !== null ? (
        <form
          noValidate
          onSubmit={(event) => void submit(event)}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && !pending) cancel();
          }}
          aria-labelledby={`${id}-step`}
          className="flex flex-col gap-3 rounded-xl bg-surface-muted p-3"
        >
          <p id={`${id}-step`} className="text-sm font-semibold break-words text-fg">
            {step === 'accepted'
              ? `Accept the quote for ${request.title}?`
              : `Decline the quote for ${request.title}?`}
          </p>
          <FormTextArea
            label="Comment (optional)"
            name="comment"
            value={comment}
            onChange={(value) => {
              setComment(value);
              setCommentError(undefined);
            }}
            error={commentError}
            rows={2}
            inputRef={commentRef}
          />
          <AnswerStepActions
            submitLabel={step === 'accepted' ? 'Accept quote' : 'Decline quote'}
            variant={step === 'accepted' ? 'primary' : 'danger'}
            pending={pending}
            offline={offline}
            onCancel={cancel}
          />
        </form>
      ) : null}

      {quoted && offline ? (
        <OfflineAnswerNote id={offlineNoteId}>{DECIDE_OFFLINE}</OfflineAnswerNote>
      ) : null}
      <AnswerError error={error} />
    </>
  );
}

export interface PortalWaitingRequestItemProps {
  entry: PortalOutboxEntry;
  /** Absent where nothing on the device can change (the kept copy read without a session). */
  remove?: (() => void) | undefined;
}

/** A request still on the device: waiting for a connection, or refused by the server. */
export function PortalWaitingRequestItem({ entry, remove }: PortalWaitingRequestItemProps) {
  const { body, refused } = entry;
  // Uploaded before the request was kept, and kept on the device to upload when it is sent.
  const attached = (body.attachmentFileIds?.length ?? 0) + (entry.files?.length ?? 0);
  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="min-w-0 font-semibold break-words text-fg">{body.title}</h3>
        <Badge
          className={
            refused
              ? changeRequestBadgeClasses.declined
              : 'bg-surface-muted text-fg-muted ring-1 ring-border-strong ring-inset'
          }
        >
          {refused ? 'Not sent' : 'Waiting to send'}
        </Badge>
      </div>
      <Asked
        description={body.description}
        desiredDate={body.desiredDate}
        askedAt={`Asked by you on ${formatFileDateTime(new Date(entry.queuedAt).toISOString())}`}
      />
      {attached > 0 ? (
        <p className="flex items-center gap-1 text-sm text-fg-muted">
          <Paperclip aria-hidden="true" size={14} />
          {attached === 1 ? '1 file attached' : `${attached} files attached`}
        </p>
      ) : null}
      {refused ? (
        <div className="flex flex-col items-start gap-2 border-t border-border pt-3">
          <p className="text-sm font-medium break-words text-danger">
            This request was not accepted: {refused.message}
          </p>
          {remove ? (
            <Button variant="secondary" onPress={remove} aria-label={`Remove ${body.title}`}>
              <Trash2 aria-hidden="true" size={16} /> Remove
            </Button>
          ) : null}
        </div>
      ) : (
        <p className="flex items-start gap-2 text-sm text-fg-muted">
          <CloudOff aria-hidden="true" size={16} className="mt-0.5 shrink-0" />
          {WAITING_TO_SEND}
        </p>
      )}
    </>
  );
}
