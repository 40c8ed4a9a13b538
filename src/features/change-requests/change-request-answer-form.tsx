/**
 * The member's answer to a change request: its cost and timeline impact, a note for the client,
 * and the decision (send a quote for the client to accept, approve, or decline), saved as one
 * patch through the outbox, so it works offline. What the field cannot read, or the contract
 * refuses, is said beside the field and nothing is queued. Once the client accepted the quote the
 * answer is final and shows read-only.
 */
import type { ChangeRequestStatus } from '#contract/entities/change-request.ts';
import { useRef, useState, type FormEvent } from 'react';
import { focusFirstInvalid } from '../auth/field-errors.ts';
import { FieldError, Label, Text, TextArea, TextField } from 'react-aria-components';
import {
  answerChangeRequest,
  type ChangeRequestAnswer,
  type MemberChangeRequestStatus,
} from '../../data/change-request-mutations.ts';
import type { LocalChangeRequest } from '../../data/change-request-queries.ts';
import { writeErrorFields, type WriteErrorFields } from '../../data/write-error-fields.ts';
import { Button } from '../../ui/button.tsx';
import { FormTextField, inputClassName, labelClassName } from '../../ui/form-text-field.tsx';
import { useWriteContext } from '../workspace/sync-context.tsx';
import {
  costImpactText,
  formatCostImpact,
  formatScheduleDays,
  parseCostImpact,
  parseScheduleDays,
} from './change-request-format.ts';

export interface AnswerOutcome {
  status: MemberChangeRequestStatus;
  /** False when the answer was what the request already said (nothing was queued). */
  changed: boolean;
  /** The answer before this one, for Undo; null when it cannot be put back (the client's status). */
  previous: ChangeRequestAnswer | null;
}

const whereItStands: Record<ChangeRequestStatus, string> = {
  submitted: 'The client is waiting for your answer.',
  quoted:
    'Your quote is with the client, to accept or decline in the portal. You can still change it, or approve or decline the change yourself.',
  approved: 'You approved this change.',
  declined: 'You declined this change.',
  quote_declined: 'The client declined your quote. Send a new one, or approve or decline.',
  accepted: 'The client accepted your quote.',
};

const NEEDS_A_PRICE = 'A quote needs a cost or a timeline impact for the client to accept';

function previousAnswer(request: LocalChangeRequest): ChangeRequestAnswer | null {
  const { status } = request;
  if (status === 'accepted' || status === 'quote_declined') return null;
  return {
    status,
    costImpact: request.costImpact,
    scheduleImpactDays: request.scheduleImpactDays,
    answer: request.answer,
  };
}

export function ChangeRequestAnswerForm({
  request,
  onAnswered,
}: {
  request: LocalChangeRequest;
  onAnswered: (outcome: AnswerOutcome) => void;
}) {
  const ctx = useWriteContext();
  const { currency } = request;
  const [cost, setCost] = useState(costImpactText(request.costImpact, currency));
  const [days, setDays] = useState(
    request.scheduleImpactDays === null ? '' : String(request.scheduleImpactDays),
  );
  const [answer, setAnswer] = useState(request.answer ?? '');
  const [errors, setErrors] = useState<WriteErrorFields>({});
  const formRef = useRef<HTMLFormElement>(null);
  const [pending, setPending] = useState<MemberChangeRequestStatus | null>(null);

  const act = async (status: MemberChangeRequestStatus) => {
    const parsedCost = parseCostImpact(cost, currency);
    const parsedDays = parseScheduleDays(days);
    const local: WriteErrorFields = {};
    if ('error' in parsedCost) local.costImpact = parsedCost.error;
    if ('error' in parsedDays) local.scheduleImpactDays = parsedDays.error;
    if ('error' in parsedCost || 'error' in parsedDays) {
      setErrors(local);
      focusFirstInvalid(formRef.current);
      return;
    }
    if (status === 'quoted' && parsedCost.value === null && parsedDays.value === null) {
      setErrors({ costImpact: NEEDS_A_PRICE });
      focusFirstInvalid(formRef.current);
      return;
    }
    const previous = previousAnswer(request);
    setErrors({});
    setPending(status);
    try {
      const changed = await answerChangeRequest(ctx, request.id, {
        status,
        costImpact: parsedCost.value,
        scheduleImpactDays: parsedDays.value,
        answer: answer.trim() === '' ? null : answer,
      });
      setPending(null);
      onAnswered({ status, changed, previous });
    } catch (error) {
      setErrors(writeErrorFields(error));
      setPending(null);
      focusFirstInvalid(formRef.current);
    }
  };

  const submit = (event: FormEvent) => {
    // Three decisions, no default one: Enter in a field does not pick one for the member.
    event.preventDefault();
  };

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      noValidate
      aria-labelledby="change-request-answer"
      className="flex flex-col gap-4"
    >
      <div>
        <h3 id="change-request-answer" className="font-semibold text-fg">
          Your answer
        </h3>
        <p className="mt-1 text-sm text-fg-muted">{whereItStands[request.status]}</p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormTextField
          label={`Cost impact (${currency})`}
          name="costImpact"
          inputMode="decimal"
          value={cost}
          onChange={setCost}
          error={errors.costImpact}
          placeholder="e.g. 1500.00"
          description="Negative for a saving."
        />
        <FormTextField
          label="Timeline impact (days)"
          name="scheduleImpactDays"
          inputMode="numeric"
          value={days}
          onChange={setDays}
          error={errors.scheduleImpactDays}
          placeholder="e.g. 5"
          description="Days the project's end moves; negative if sooner."
        />
      </div>
      <TextField
        value={answer}
        onChange={setAnswer}
        isInvalid={errors.answer !== undefined}
        validationBehavior="aria"
        className="flex flex-col gap-1.5"
      >
        <Label className={labelClassName}>Answer to the client</Label>
        <TextArea
          name="answer"
          rows={3}
          placeholder="What the change involves, or why not"
          className={`${inputClassName} py-2`}
        />
        <Text slot="description" className="text-sm text-fg-muted">
          The client reads it with your quote or decision.
        </Text>
        <FieldError className="text-sm font-medium text-danger">{errors.answer}</FieldError>
      </TextField>
      {(errors.form ?? errors.status) ? (
        <p role="alert" className="text-sm font-medium text-danger">
          {errors.form ?? errors.status}
        </p>
      ) : null}
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        <Button
          onPress={() => void act('quoted')}
          isPending={pending === 'quoted'}
          isDisabled={pending !== null}
        >
          Send quote to client
        </Button>
        <Button
          variant="secondary"
          onPress={() => void act('approved')}
          isPending={pending === 'approved'}
          isDisabled={pending !== null}
        >
          Approve
        </Button>
        <Button
          variant="secondary"
          onPress={() => void act('declined')}
          isPending={pending === 'declined'}
          isDisabled={pending !== null}
        >
          Decline
        </Button>
      </div>
    </form>
  );
}

/** The answer the client accepted: shown, never edited again. */
export function AcceptedAnswer({ request }: { request: LocalChangeRequest }) {
  return (
    <section aria-labelledby="change-request-answer" className="flex flex-col gap-3">
      <div>
        <h3 id="change-request-answer" className="font-semibold text-fg">
          Your answer
        </h3>
        <p className="mt-1 text-sm text-fg-muted">
          The client accepted this quote, so its cost, timeline and status can no longer change.
        </p>
      </div>
      <dl className="grid gap-3 rounded-xl bg-surface-muted p-4 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-xs font-medium text-fg-muted">Cost impact</dt>
          <dd className="font-medium text-fg tabular-nums">
            {request.costImpact === null
              ? 'Not priced'
              : formatCostImpact(request.costImpact, request.currency)}
          </dd>
        </div>
        <div>
          <dt className="text-xs font-medium text-fg-muted">Timeline impact</dt>
          <dd className="text-fg tabular-nums">
            {request.scheduleImpactDays === null
              ? 'Not estimated'
              : formatScheduleDays(request.scheduleImpactDays)}
          </dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="text-xs font-medium text-fg-muted">Answer to the client</dt>
          <dd className="whitespace-pre-line text-fg">{request.answer ?? 'No note.'}</dd>
        </div>
      </dl>
    </section>
  );
}
