/**
 * "Ask for a change": the client's new change request. Checked with the contract's own schema
 * before it is sent, so the words are the server's. The id is made here, once per request, so a
 * request kept offline and sent twice is still one request (portal-outbox.ts). Attached files are
 * uploaded as they are chosen (portal-attachments.tsx); the request carries their ids. Offline,
 * they are kept on the device and go with the queued request, uploaded when it is sent.
 */
import { submitChangeRequest } from '#contract/endpoints/client-portal.ts';
import { CloudOff, Send } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../ui/button.tsx';
import { FormTextField } from '../../ui/form-text-field.tsx';
import { focusFirstInvalid } from '../auth/field-errors.ts';
import { validateForm } from '../marketing/form-errors.ts';
import { localToday } from '../milestones/milestone-format.ts';
import type { PortalActionResult } from './portal-action-result.ts';
import { PortalAttachmentList, usePortalAttachments } from './portal-attachments.tsx';
import type { ChangeRequestDraft } from './portal-outbox.ts';
import type { PendingFileRef, PortalPendingFiles } from './portal-pending-files.ts';
import { FormTextArea } from '../../ui/form-text-area.tsx';
import type { PortalUploadFile } from './portal-upload.ts';

export const MAX_TITLE_CHARS = 200;

type Field = 'title' | 'description' | 'desiredDate';

export interface PortalChangeRequestFormProps {
  projectId: string;
  /** No connection: the request will be kept on the device and sent later. */
  offline: boolean;
  newId: () => string;
  /** Sends an attached file to the project (tus on the portal cookie in the real portal). */
  uploadFile: PortalUploadFile;
  /** Where files attached offline wait on the device. */
  pendingFiles: PortalPendingFiles;
  /** Sends the request, or keeps it (with the files kept on the device) to send later. */
  submit: (
    draft: ChangeRequestDraft,
    keptFiles: readonly PendingFileRef[],
  ) => Promise<PortalActionResult>;
  /** Sent or kept to send: the list shows it and takes focus. */
  onDone: (id: string) => void;
  onCancel: () => void;
}

export function PortalChangeRequestForm({
  projectId,
  offline,
  newId,
  uploadFile,
  pendingFiles,
  submit,
  onDone,
  onCancel,
}: PortalChangeRequestFormProps) {
  const attachments = usePortalAttachments(projectId, uploadFile, pendingFiles, offline);
  const titleRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [desiredDate, setDesiredDate] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // One id per request typed here: a retry after a refused send is still the same request.
  const [id] = useState(newId);

  useEffect(() => {
    titleRef.current?.focus();
  }, []);

  const tooLong = title.trim().length > MAX_TITLE_CHARS;
  const titleError =
    errors.title ?? (tooLong ? `Title must be at most ${MAX_TITLE_CHARS} characters` : undefined);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    const checked = validateForm<typeof submitChangeRequest.body, Field>(submitChangeRequest.body, {
      id,
      projectId,
      title,
      ...(description.trim() === '' ? {} : { description }),
      ...(desiredDate === '' ? {} : { desiredDate }),
      ...(attachments.fileIds.length === 0 ? {} : { attachmentFileIds: attachments.fileIds }),
    });
    // A wish for a day already gone is a slip: it would reach the members' plans as a date missed.
    const past = desiredDate !== '' && desiredDate < localToday();
    if (!checked.ok || past) {
      const errors = checked.ok ? {} : checked.errors;
      if (past) errors.desiredDate = 'Choose today or a later day';
      setErrors(errors);
      focusFirstInvalid(formRef.current);
      setFailure(
        Object.keys(errors).some((key) => !['title', 'description', 'desiredDate'].includes(key))
          ? 'This page’s link is not valid. Open the link you were sent again.'
          : null,
      );
      return;
    }
    setErrors({});
    if (attachments.blocker) {
      setFailure(attachments.blocker);
      return;
    }
    setFailure(null);
    setPending(true);
    const result = await submit(checked.output, attachments.keptFiles);
    setPending(false);
    if (result.ok) {
      attachments.handOver();
      onDone(id);
      return;
    }
    setErrors(result.fieldErrors);
    setFailure(result.message);
    focusFirstInvalid(formRef.current);
  };

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={(event) => void send(event)}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !pending) onCancel();
      }}
      aria-labelledby="portal-new-change-request"
      className="flex flex-col gap-4 rounded-2xl border border-border bg-surface p-4 sm:p-5"
    >
      <h3 id="portal-new-change-request" className="text-lg font-semibold text-fg">
        Ask for a change
      </h3>
      <FormTextField
        label="What would you like to change?"
        name="title"
        value={title}
        onChange={(value) => {
          setTitle(value);
          setErrors(({ title: _, ...rest }) => rest);
        }}
        isRequired
        error={titleError}
        inputRef={titleRef}
        description={`${title.trim().length} of ${MAX_TITLE_CHARS} characters`}
      />
      <FormTextArea
        label="Details (optional)"
        name="description"
        value={description}
        onChange={(value) => {
          setDescription(value);
          setErrors(({ description: _, ...rest }) => rest);
        }}
        error={errors.description}
        rows={4}
      />
      <FormTextField
        label="Wanted by (optional)"
        name="desiredDate"
        type="date"
        value={desiredDate}
        onChange={(value) => {
          setDesiredDate(value);
          setErrors(({ desiredDate: _, ...rest }) => rest);
        }}
        error={errors.desiredDate}
        className="sm:max-w-xs"
      />
      <PortalAttachmentList attachments={attachments} offline={offline} disabled={pending} />
      {offline ? (
        <p className="flex items-start gap-2 text-sm text-fg-muted">
          <CloudOff aria-hidden="true" size={16} className="mt-0.5 shrink-0" />
          You’re offline: your request is kept on this device and sent when you’re back online.
        </p>
      ) : null}
      <div role="alert" className="text-sm font-medium text-danger empty:hidden">
        {failure}
      </div>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" isDisabled={pending} onPress={onCancel}>
          Cancel
        </Button>
        <Button type="submit" isPending={pending}>
          <Send aria-hidden="true" size={16} /> Send request
        </Button>
      </div>
    </form>
  );
}
