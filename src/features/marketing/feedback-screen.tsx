import { CircleAlert, Star } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { FieldError, Label, Radio, RadioGroup, Text } from 'react-aria-components';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { submitFeedback } from '#contract/endpoints/feedback.ts';
import { MAX_MESSAGE_LENGTH } from '#contract/entities/contact-message.ts';
import {
  feedbackCategories,
  submitFeedbackInputSchema,
  type FeedbackCategory,
} from '#contract/entities/feedback.ts';
import { Button } from '../../ui/button.tsx';
import { LinkButton } from '../../ui/link-button.tsx';
import { TextLink } from '../../ui/text-link.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { readSubmitFailure, validateForm, type FieldErrors } from './form-errors.ts';
import { PageHeader } from './marketing-blocks.tsx';
import {
  CharacterCount,
  descriptionClass,
  errorClass,
  fieldLabelClass,
  focusFirstInvalid,
  FormTextField,
  HoneypotField,
  SubmitRow,
  SuccessPanel,
  useSubmission,
} from './public-form.tsx';
import { sitePageTitle } from './site-pages.ts';
import { useTakeOverPrerenderedPage } from './use-prerendered-takeover.ts';

type FeedbackField = 'rating' | 'category' | 'message' | 'email';

export interface FeedbackScreenProps {
  callEndpoint: CallEndpoint;
  /** The signed-in user's email: their feedback is linked to the account by the server. */
  signedInEmail: string | null;
}

interface FeedbackValues {
  rating: number | null;
  category: FeedbackCategory | null;
  message: string;
  email: string;
  website: string;
}

const ratingLabels = ['Very poor', 'Poor', 'Fair', 'Good', 'Excellent'] as const;

const categoryLabels: Record<FeedbackCategory, { label: string; hint: string }> = {
  bug: { label: 'Something is broken', hint: 'A bug' },
  idea: { label: 'An idea', hint: 'Something you would like' },
  praise: { label: 'Praise', hint: 'Something you like' },
  question: { label: 'A question', hint: 'Something unclear' },
  other: { label: 'Something else', hint: 'Anything at all' },
};

const empty: FeedbackValues = { rating: null, category: null, message: '', email: '', website: '' };

/** Product feedback: a rating, a topic and a message, checked with the contract's schema. */
export function FeedbackScreen({ callEndpoint, signedInEmail }: FeedbackScreenProps) {
  usePageTitle(sitePageTitle('/feedback'));
  useTakeOverPrerenderedPage();
  const [values, setValues] = useState<FeedbackValues>(empty);
  const [errors, setErrors] = useState<FieldErrors<FeedbackField>>({});
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const submission = useSubmission();
  const formRef = useRef<HTMLFormElement>(null);

  const check = (next: FeedbackValues) => {
    const result = validateForm<typeof submitFeedbackInputSchema, FeedbackField>(
      submitFeedbackInputSchema,
      {
        rating: next.rating ?? undefined,
        category: next.category ?? undefined,
        message: next.message,
        email: next.email.trim() === '' ? undefined : next.email,
        website: next.website || undefined,
      },
    );
    // The schema's words for a missing number are about types; a person needs to know what to do.
    if (!result.ok && next.rating === null) result.errors.rating = 'Choose a rating from 1 to 5';
    return result;
  };

  const update = <K extends keyof FeedbackValues>(field: K, value: FeedbackValues[K]) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (hasTriedSubmit) {
      const result = check(next);
      setErrors(result.ok ? {} : result.errors);
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submission.state === 'submitting') return;
    setHasTriedSubmit(true);
    setFailure(null);
    const result = check(values);
    if (!result.ok) {
      setErrors(result.errors);
      focusFirstInvalid(formRef);
      return;
    }
    setErrors({});
    submission
      .run(() =>
        callEndpoint(submitFeedback, { query: {}, body: result.output }).then(() => undefined),
      )
      .catch((error: unknown) => {
        const read = readSubmitFailure<FeedbackField>(error);
        setErrors(read.fieldErrors);
        setFailure(read.message);
        if (Object.keys(read.fieldErrors).length > 0) focusFirstInvalid(formRef);
      });
  };

  const startOver = () => {
    setValues(empty);
    setErrors({});
    setHasTriedSubmit(false);
    setFailure(null);
    submission.reset();
  };

  return (
    <>
      <PageHeader
        eyebrow="Help shape Satchel"
        title="Feedback"
        lead="Tell us what works, what does not, and what you would like next. It goes straight to the people who build Satchel."
      />
      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
        {submission.state === 'sent' ? (
          <SuccessPanel
            title="Thank you for your feedback"
            actions={
              <>
                <Button variant="secondary" onPress={startOver}>
                  Send more feedback
                </Button>
                <LinkButton href="/" variant="ghost">
                  Back to the home page
                </LinkButton>
              </>
            }
          >
            <p>
              We read all of it. If you left an email address and asked something, we will reply
              there.
            </p>
          </SuccessPanel>
        ) : (
          <form
            ref={formRef}
            noValidate
            onSubmit={onSubmit}
            aria-label="Feedback form"
            className="relative flex flex-col gap-8"
          >
            {signedInEmail ? (
              <p className="rounded-lg bg-surface-muted px-4 py-3 text-sm text-fg-muted">
                You are signed in as <strong className="text-fg">{signedInEmail}</strong>, so this
                feedback is linked to your account.
              </p>
            ) : null}
            <RadioGroup
              name="rating"
              orientation="horizontal"
              isRequired
              validationBehavior="aria"
              value={values.rating === null ? null : String(values.rating)}
              onChange={(value) => update('rating', Number(value))}
              isInvalid={errors.rating !== undefined}
              className="flex flex-col"
            >
              <Label className={fieldLabelClass}>How would you rate Satchel?</Label>
              <Text slot="description" className={descriptionClass}>
                1 is very poor, 5 is excellent.
              </Text>
              <div className="mt-3 flex flex-wrap gap-2">
                {ratingLabels.map((label, index) => {
                  const rating = index + 1;
                  return (
                    <Radio
                      key={rating}
                      value={String(rating)}
                      aria-label={`${rating}, ${label}`}
                      className="group flex min-h-12 min-w-12 cursor-pointer items-center justify-center gap-1.5 rounded-xl border border-border-strong bg-surface px-3 text-base font-semibold text-fg transition-colors hover:bg-surface-muted data-focus-visible:outline-2 data-focus-visible:outline-offset-2 data-selected:border-brand data-selected:bg-brand data-selected:text-on-brand"
                    >
                      <Star
                        aria-hidden="true"
                        size={18}
                        className="text-brand group-data-selected:fill-current group-data-selected:text-on-brand"
                      />
                      {rating}
                    </Radio>
                  );
                })}
              </div>
              <FieldError className={errorClass}>
                <CircleAlert aria-hidden="true" size={16} className="mt-0.5 shrink-0" />
                {errors.rating}
              </FieldError>
            </RadioGroup>

            <RadioGroup
              name="category"
              isRequired
              validationBehavior="aria"
              value={values.category}
              onChange={(value) => update('category', value as FeedbackCategory)}
              isInvalid={errors.category !== undefined}
              className="flex flex-col"
            >
              <Label className={fieldLabelClass}>What is it about?</Label>
              <div className="mt-3 grid gap-2 sm:grid-cols-2">
                {feedbackCategories.map((category) => (
                  <Radio
                    key={category}
                    value={category}
                    className="group flex min-h-12 cursor-pointer items-center gap-3 rounded-xl border border-border-strong bg-surface px-4 py-2 text-fg transition-colors hover:bg-surface-muted data-focus-visible:outline-2 data-focus-visible:outline-offset-2 data-selected:border-brand data-selected:bg-brand-soft"
                  >
                    <span
                      aria-hidden="true"
                      className="grid size-5 shrink-0 place-items-center rounded-full border-2 border-border-strong group-data-selected:border-brand"
                    >
                      <span className="size-2.5 rounded-full bg-brand opacity-0 group-data-selected:opacity-100" />
                    </span>
                    <span>
                      <span className="block font-medium">{categoryLabels[category].label}</span>
                      <span className="block text-sm text-fg-muted">
                        {categoryLabels[category].hint}
                      </span>
                    </span>
                  </Radio>
                ))}
              </div>
              <FieldError className={errorClass}>
                <CircleAlert aria-hidden="true" size={16} className="mt-0.5 shrink-0" />
                {errors.category}
              </FieldError>
            </RadioGroup>

            <FormTextField
              name="message"
              label="Your feedback"
              multiline
              rows={6}
              isRequired
              value={values.message}
              onChange={(value) => update('message', value)}
              error={errors.message}
              description={
                <CharacterCount length={values.message.trim().length} max={MAX_MESSAGE_LENGTH} />
              }
            />
            <FormTextField
              name="email"
              label="Email"
              type="email"
              inputMode="email"
              autoComplete="email"
              value={values.email}
              onChange={(value) => update('email', value)}
              error={errors.email}
              description="Only if you would like a reply."
            />
            <HoneypotField value={values.website} onChange={(value) => update('website', value)} />
            <SubmitRow
              isSubmitting={submission.state === 'submitting'}
              label="Send feedback"
              pendingLabel="Sending your feedback…"
              failure={failure}
            />
            <p className="text-sm text-fg-muted">
              Need an answer about your account or a bill? Use the{' '}
              <TextLink href="/contact">contact form</TextLink> instead.
            </p>
          </form>
        )}
      </div>
    </>
  );
}
