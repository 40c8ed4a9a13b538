/**
 * The portal's "Change requests" section: the project's requests newest first, the ones still on
 * the device among them, and "Ask for a change". After a request is sent (or kept to send) focus
 * moves to it in the list; after "Remove", to the section's heading.
 */
import type { PortalChangeRequest, PortalFile } from '#contract/endpoints/client-portal.ts';
import { MessageSquarePlus } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '../../ui/button.tsx';
import type { PortalActionResult } from './portal-action-result.ts';
import {
  PortalChangeRequestItem,
  PortalRequestRow,
  PortalWaitingRequestItem,
  type QuoteDecision,
} from './portal-change-request-item.tsx';
import { PortalChangeRequestForm } from './portal-change-request-form.tsx';
import type { ChangeRequestDraft, PortalOutboxEntry } from './portal-outbox.ts';
import type { PendingFileRef, PortalPendingFiles } from './portal-pending-files.ts';
import type { PortalUploadFile } from './portal-upload.ts';

export interface PortalChangeRequestsProps {
  projectId: string;
  workspaceName: string;
  changeRequests: PortalChangeRequest[];
  /** Requests on the device, not yet accepted by the server. */
  waiting: PortalOutboxEntry[];
  offline: boolean;
  /** The kept copy read without a session: the list only, nothing can be asked. */
  readOnly?: boolean;
  /** The list could not be read this time (the rest of the page could). */
  loadError: string | null;
  newId: () => string;
  uploadFile: PortalUploadFile;
  /** Where files attached offline wait on the device. */
  pendingFiles: PortalPendingFiles;
  /** The project's files the client sees, to name a request's attachments. */
  files: readonly PortalFile[];
  /** Downloads (or opens the kept copy of) an attachment. */
  openFile: (file: PortalFile) => void;
  create: (
    draft: ChangeRequestDraft,
    keptFiles: readonly PendingFileRef[],
  ) => Promise<PortalActionResult>;
  decide: (
    id: string,
    decision: QuoteDecision,
    comment: string | null,
  ) => Promise<PortalActionResult>;
  remove: (id: string) => void;
}

type Row =
  | { kind: 'sent'; id: string; at: number; request: PortalChangeRequest }
  | { kind: 'waiting'; id: string; at: number; entry: PortalOutboxEntry };

/** Newest first, the device's own requests among the server's by when they were asked. */
function rowsOf(changeRequests: PortalChangeRequest[], waiting: PortalOutboxEntry[]): Row[] {
  const onDevice = new Set(waiting.map((entry) => entry.body.id));
  const rows: Row[] = [
    ...waiting.map((entry) => ({
      kind: 'waiting' as const,
      id: entry.body.id,
      at: entry.queuedAt,
      entry,
    })),
    ...changeRequests
      .filter((request) => !onDevice.has(request.id))
      .map((request) => ({
        kind: 'sent' as const,
        id: request.id,
        at: Date.parse(request.createdAt) || 0,
        request,
      })),
  ];
  return rows.sort((a, b) => b.at - a.at);
}

export function PortalChangeRequests({
  projectId,
  workspaceName,
  changeRequests,
  waiting,
  offline,
  readOnly = false,
  loadError,
  newId,
  uploadFile,
  pendingFiles,
  files,
  openFile,
  create,
  decide,
  remove,
}: PortalChangeRequestsProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const askRef = useRef<HTMLButtonElement>(null);
  const [asking, setAsking] = useState(false);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [focusAfterClose, setFocusAfterClose] = useState<'ask' | 'heading' | null>(null);
  const rows = rowsOf(changeRequests, waiting);

  useEffect(() => {
    if (focusAfterClose === null) return;
    (focusAfterClose === 'ask' ? askRef : headingRef).current?.focus();
    setFocusAfterClose(null);
  }, [focusAfterClose]);

  const focusTaken = useCallback(() => setFocusId(null), []);

  return (
    <section aria-labelledby="portal-change-requests" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2
          id="portal-change-requests"
          ref={headingRef}
          tabIndex={-1}
          className="text-xl font-semibold text-fg outline-none"
        >
          Change requests
        </h2>
        {asking || readOnly ? null : (
          <Button ref={askRef} variant="secondary" onPress={() => setAsking(true)}>
            <MessageSquarePlus aria-hidden="true" size={16} /> Ask for a change
          </Button>
        )}
      </div>
      {asking ? (
        <PortalChangeRequestForm
          projectId={projectId}
          offline={offline}
          newId={newId}
          uploadFile={uploadFile}
          pendingFiles={pendingFiles}
          submit={create}
          onDone={(id) => {
            setAsking(false);
            setFocusId(id);
          }}
          onCancel={() => {
            setAsking(false);
            setFocusAfterClose('ask');
          }}
        />
      ) : null}
      {loadError ? (
        <p role="status" className="text-sm text-fg-muted">
          {loadError}
        </p>
      ) : null}
      {rows.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-border p-6 text-center text-fg-muted">
          {readOnly
            ? 'No change requests yet.'
            : 'No change requests yet. Need something added or done differently? Ask for a change.'}
        </p>
      ) : (
        <ol className="flex flex-col gap-3">
          {rows.map((row) => (
            <PortalRequestRow
              key={row.id}
              waiting={row.kind === 'waiting'}
              takeFocus={focusId === row.id}
              onFocusTaken={focusTaken}
            >
              {row.kind === 'waiting' ? (
                <PortalWaitingRequestItem
                  entry={row.entry}
                  remove={
                    readOnly
                      ? undefined
                      : () => {
                          remove(row.id);
                          setFocusAfterClose('heading');
                        }
                  }
                />
              ) : (
                <PortalChangeRequestItem
                  changeRequest={row.request}
                  workspaceName={workspaceName}
                  offline={offline}
                  files={files}
                  openFile={openFile}
                  focusRow={() => setFocusId(row.id)}
                  decide={(decision, comment) => decide(row.id, decision, comment)}
                />
              )}
            </PortalRequestRow>
          ))}
        </ol>
      )}
    </section>
  );
}
