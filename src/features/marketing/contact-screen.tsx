import { CircleHelp, Lightbulb, Mail } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { submitContact } from '#contract/endpoints/contact.ts';
import {
  MAX_MESSAGE_LENGTH,
  submitContactInputSchema,
} from '#contract/entities/contact-message.ts';
import { Button } from '../../ui/button.tsx';
import { LinkButton } from '../../ui/link-button.tsx';
import { TextLink } from '../../ui/text-link.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { readSubmitFailure, validateForm, type FieldErrors } from './form-errors.ts';
import { PageHeader } from './marketing-blocks.tsx';
import {
  CharacterCount,
  focusFirstInvalid,
  FormTextField,
  HoneypotField,
  SubmitRow,
  SuccessPanel,
  useSubmission,
} from './public-form.tsx';
import { sitePageTitle } from './site-pages.ts';
import { useTakeOverPrerenderedPage } from './use-prerendered-takeover.ts';

type ContactField = 'name' | 'email' | 'subject' | 'message';

export interface ContactScreenProps {
  callEndpoint: CallEndpoint;
  /** Prefilled subject, e.g. from a billing result page's "Contact support". */
  initialSubject?: string | undefined;
}

interface ContactValues {
  name: string;
  email: string;
  subject: string;
  message: string;
  website: string;
}

/** The contact form: checked with the contract's schema, sent once, then a clear success state. */
export function ContactScreen({ callEndpoint, initialSubject }: ContactScreenProps) {
  usePageTitle(sitePageTitle('/contact'));
  useTakeOverPrerenderedPage();
  const empty: ContactValues = {
    name: '',
    email: '',
    subject: initialSubject?.slice(0, 200) ?? '',
    message: '',
    website: '',
  };
  const [values, setValues] = useState<ContactValues>(empty);
  const [errors, setErrors] = useState<FieldErrors<ContactField>>({});
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<{ name: string; email: string } | null>(null);
  const submission = useSubmission();
  const formRef = useRef<HTMLFormElement>(null);

  const check = (next: ContactValues) =>
    validateForm<typeof submitContactInputSchema, ContactField>(submitContactInputSchema, {
      ...next,
      website: next.website || undefined,
    });

  const update = (field: keyof ContactValues) => (value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    // Once a submit has shown errors, they follow the typing so a fixed field clears at once.
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
      .run(async () => {
        await callEndpoint(submitContact, { query: {}, body: result.output });
        setSentTo({ name: result.output.name, email: result.output.email });
      })
      .catch((error: unknown) => {
        const read = readSubmitFailure<ContactField>(error);
        setErrors(read.fieldErrors);
        setFailure(read.message);
        if (Object.keys(read.fieldErrors).length > 0) focusFirstInvalid(formRef);
      });
  };

  const startOver = () => {
    setValues({ ...empty, subject: '' });
    setErrors({});
    setHasTriedSubmit(false);
    setFailure(null);
    setSentTo(null);
    submission.reset();
  };

  return (
    <>
      <PageHeader
        eyebrow="Get in touch"
        title="Contact us"
        lead="Questions before you sign up, trouble with your account or a bill, or anything else: the people who build Satchel read every message."
      />
      <div className="mx-auto grid max-w-6xl gap-12 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-[1fr_20rem]">
        <div className="relative max-w-2xl">
          {submission.state === 'sent' && sentTo ? (
            <SuccessPanel
              title="Message sent"
              actions={
                <>
                  <Button variant="secondary" onPress={startOver}>
                    Write another message
                  </Button>
                  <LinkButton href="/" variant="ghost">
                    Back to the home page
                  </LinkButton>
                </>
              }
            >
              <p>
                Thank you, {sentTo.name}. We reply by email to <strong>{sentTo.email}</strong>;
                check your spam folder if you do not hear from us.
              </p>
            </SuccessPanel>
          ) : (
            <form
              ref={formRef}
              noValidate
              onSubmit={onSubmit}
              aria-label="Contact form"
              className="relative flex flex-col gap-6"
            >
              <p className="text-sm text-fg-muted">Every field is required.</p>
              <div className="grid gap-6 sm:grid-cols-2">
                <FormTextField
                  name="name"
                  label="Your name"
                  autoComplete="name"
                  isRequired
                  value={values.name}
                  onChange={update('name')}
                  error={errors.name}
                />
                <FormTextField
                  name="email"
                  label="Email"
                  type="email"
                  inputMode="email"
                  autoComplete="email"
                  isRequired
                  value={values.email}
                  onChange={update('email')}
                  error={errors.email}
                  description="We reply to this address."
                />
              </div>
              <FormTextField
                name="subject"
                label="Subject"
                isRequired
                value={values.subject}
                onChange={update('subject')}
                error={errors.subject}
              />
              <FormTextField
                name="message"
                label="Message"
                multiline
                rows={7}
                isRequired
                value={values.message}
                onChange={update('message')}
                error={errors.message}
                description={
                  <CharacterCount length={values.message.trim().length} max={MAX_MESSAGE_LENGTH} />
                }
              />
              <HoneypotField value={values.website} onChange={update('website')} />
              <SubmitRow
                isSubmitting={submission.state === 'submitting'}
                label="Send message"
                pendingLabel="Sending your message…"
                failure={failure}
              />
              <p className="text-sm text-fg-muted">
                We use what you write only to answer you; see the{' '}
                <TextLink href="/privacy-policy">privacy policy</TextLink>.
              </p>
            </form>
          )}
        </div>
        <aside aria-label="Other ways to get help" className="flex flex-col gap-4">
          <HelpCard
            Icon={CircleHelp}
            title="Quick answers"
            body="Offline use, the client portal, payments and your data are covered in the FAQ."
            href="/faq"
            linkLabel="Read the FAQ"
          />
          <HelpCard
            Icon={Lightbulb}
            title="An idea or a bug?"
            body="The feedback form goes straight to the product team, with a rating and a topic."
            href="/feedback"
            linkLabel="Send feedback"
          />
          <HelpCard
            Icon={Mail}
            title="Payments"
            body="For a failed payment or a question about a bill, include the payment reference from the result page."
            href="/pricing"
            linkLabel="See the plans"
          />
        </aside>
      </div>
    </>
  );
}

interface HelpCardProps {
  Icon: typeof Mail;
  title: string;
  body: string;
  href: string;
  linkLabel: string;
}

function HelpCard({ Icon, title, body, href, linkLabel }: HelpCardProps) {
  return (
    <div className="rounded-2xl border border-border bg-surface p-5">
      <h2 className="flex items-center gap-2 font-semibold text-fg">
        <Icon aria-hidden="true" size={18} className="text-brand" />
        {title}
      </h2>
      <p className="mt-2 text-sm text-fg-muted">{body}</p>
      <TextLink href={href} className="mt-3 inline-flex min-h-11 items-center text-sm sm:min-h-0">
        {linkLabel}
      </TextLink>
    </div>
  );
}
