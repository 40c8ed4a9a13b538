import { CircleAlert, CircleCheck, Send } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import {
  FieldError,
  Input,
  Label,
  Text,
  TextArea,
  TextField,
  type TextFieldProps,
} from 'react-aria-components';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';

export const fieldLabelClass = 'text-sm font-semibold text-fg';
const inputClass =
  'mt-1.5 block w-full rounded-lg border border-border-strong bg-surface px-3 py-2.5 text-base text-fg shadow-sm outline-none ' +
  'placeholder:text-fg-muted data-focused:border-brand data-focus-visible:outline-2 data-focus-visible:outline-offset-1 ' +
  'data-invalid:border-danger';
export const descriptionClass = 'mt-1.5 block text-sm text-fg-muted';
export const errorClass = 'mt-1.5 flex items-start gap-1.5 text-sm font-medium text-danger';

export interface FormTextFieldProps extends Pick<
  TextFieldProps,
  'autoComplete' | 'type' | 'isRequired' | 'inputMode'
> {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  description?: ReactNode;
  multiline?: boolean;
  rows?: number;
}

/** A labelled text input or text area with its description and error, wired for screen readers. */
export function FormTextField({
  name,
  label,
  value,
  onChange,
  error,
  description,
  multiline = false,
  rows = 6,
  ...props
}: FormTextFieldProps) {
  return (
    <TextField
      {...props}
      name={name}
      value={value}
      onChange={onChange}
      isInvalid={error !== undefined}
      validationBehavior="aria"
      className="flex flex-col"
    >
      <Label className={fieldLabelClass}>
        {label}
        {props.isRequired ? null : <span className="font-normal text-fg-muted"> (optional)</span>}
      </Label>
      {multiline ? (
        <TextArea rows={rows} className={`${inputClass} resize-y`} />
      ) : (
        <Input className={inputClass} />
      )}
      {description ? (
        <Text slot="description" className={descriptionClass}>
          {description}
        </Text>
      ) : null}
      <FieldError className={errorClass}>
        <CircleAlert aria-hidden="true" size={16} className="mt-0.5 shrink-0" />
        {error}
      </FieldError>
    </TextField>
  );
}

export interface HoneypotFieldProps {
  value: string;
  onChange: (value: string) => void;
}

/**
 * A field people never see or reach (off-screen, hidden from assistive technology, out of the
 * tab order) and bots fill in; the server accepts such a submission silently and keeps nothing.
 */
export function HoneypotField({ value, onChange }: HoneypotFieldProps) {
  return (
    <div aria-hidden="true" className="absolute top-0 -left-[10000px] size-px overflow-hidden">
      <label>
        Website
        <input
          type="text"
          name="website"
          tabIndex={-1}
          autoComplete="off"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      </label>
    </div>
  );
}

/** Characters used of a limit; turns red past it (the schema then refuses the text). */
export function CharacterCount({ length, max }: { length: number; max: number }) {
  const format = (n: number) => n.toLocaleString('en-US');
  return (
    <span className={length > max ? 'font-semibold text-danger' : undefined}>
      {format(length)} / {format(max)} characters
    </span>
  );
}

export interface SubmitRowProps {
  isSubmitting: boolean;
  label: string;
  pendingLabel: string;
  failure: string | null;
}

/** The submit button with its progress, and the form-level error above it. */
export function SubmitRow({ isSubmitting, label, pendingLabel, failure }: SubmitRowProps) {
  return (
    <div className="flex flex-col gap-4">
      {failure ? (
        <p
          role="alert"
          className="flex items-start gap-2 rounded-lg border border-danger/40 bg-danger/10 px-4 py-3 text-sm font-medium text-fg"
        >
          <CircleAlert aria-hidden="true" size={18} className="mt-0.5 shrink-0 text-danger" />
          {failure}
        </p>
      ) : null}
      <div className="flex flex-col items-stretch gap-3 sm:flex-row sm:items-center">
        <Button type="submit" size="large" isPending={isSubmitting}>
          {isSubmitting ? (
            <>
              <Spinner size="small" className="text-on-brand" />
              {pendingLabel}
            </>
          ) : (
            <>
              <Send aria-hidden="true" size={18} />
              {label}
            </>
          )}
        </Button>
        <span role="status" className="text-sm text-fg-muted">
          {isSubmitting ? `${pendingLabel} Please keep this page open.` : ''}
        </span>
      </div>
    </div>
  );
}

export interface SuccessPanelProps {
  title: string;
  children: ReactNode;
  actions: ReactNode;
}

/** Replaces a sent form; its heading takes focus so the change is announced and in view. */
export function SuccessPanel({ title, children, actions }: SuccessPanelProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  return (
    <div className="rounded-2xl border border-success/40 bg-surface p-6 shadow-sm sm:p-8">
      <span className="grid size-12 place-items-center rounded-xl bg-success/15 text-success">
        <CircleCheck aria-hidden="true" size={26} />
      </span>
      <h2
        ref={headingRef}
        tabIndex={-1}
        className="mt-4 text-2xl font-bold tracking-tight text-fg outline-none"
      >
        {title}
      </h2>
      <div className="mt-2 text-fg-muted">{children}</div>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">{actions}</div>
    </div>
  );
}

export type SubmissionState = 'editing' | 'submitting' | 'sent';

/**
 * One submission at a time: a second submit while one is in flight is ignored (the button is
 * pending too, but a fast double Enter must not send twice).
 */
export function useSubmission() {
  const [state, setState] = useState<SubmissionState>('editing');
  const inFlight = useRef(false);
  async function run(send: () => Promise<void>): Promise<boolean> {
    if (inFlight.current) return false;
    inFlight.current = true;
    setState('submitting');
    try {
      await send();
      setState('sent');
      return true;
    } catch (error) {
      setState('editing');
      throw error;
    } finally {
      inFlight.current = false;
    }
  }
  return { state, run, reset: () => setState('editing') };
}

/** Moves focus to the first invalid field after a refused submit. */
export function focusFirstInvalid(form: RefObject<HTMLFormElement | null>): void {
  // After React has rendered the errors.
  requestAnimationFrame(() => {
    const invalid = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    // A radio group marks the group invalid; focus goes to its first radio.
    const target = invalid?.matches('input, textarea, select')
      ? invalid
      : invalid?.querySelector<HTMLElement>('input');
    target?.focus();
  });
}
