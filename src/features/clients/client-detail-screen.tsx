/**
 * /clients/{id}: one client's details, edited in place field by field, their projects, the
 * files of those projects, and their notes, and archive / delete with undo. All from the local database: it opens offline, and edits made on
 * another device appear as they sync.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { Archive, ArchiveRestore, ArrowLeft, FolderKanban, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { clientStatuses, type ClientStatus } from '#contract/entities/client.ts';
import type { LocalClient } from '../../db/app-database.ts';
import { LocalWriteError } from '../../db/local-write.ts';
import { cancelQueuedChange } from '../../sync/sync-client.ts';
import { Button } from '../../ui/button.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { useToast } from '../../ui/use-toast.ts';
import { ProjectStatusBadge } from '../projects/project-status-badge.tsx';
import { useProjects } from '../../data/project-queries.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { useSync, useWriteContext } from '../workspace/sync-context.tsx';
import { useWorkspace, WorkspaceGate } from '../workspace/workspace-gate.tsx';
import { clientStatusBadgeClass, clientStatusLabels } from './client-labels.ts';
import { deleteClient, updateClient, type ClientPatch } from '../../data/client-mutations.ts';
import { useClient } from '../../data/client-queries.ts';
import { InlineTextField } from '../../ui/inline-text-field.tsx';
import { parseTags } from './parse-tags.ts';
import { ClientNotes } from '../notes/client-notes.tsx';
import { ClientFiles } from '../files/client-files.tsx';
import { showUndoNotice } from '../../ui/undo-notice.ts';

/** How long Undo is offered after a delete; the delete waits this long in the outbox. */
const UNDO_WINDOW_MS = 8000;

export function ClientDetailScreen({ clientId }: { clientId: string }) {
  return (
    <WorkspaceGate title="Client">
      <ClientDetail clientId={clientId} />
    </WorkspaceGate>
  );
}

function ClientDetail({ clientId }: { clientId: string }) {
  const { handle } = useSync();
  const client = useClient(handle.db, clientId);
  usePageTitle(client ? client.name : 'Client');
  if (client === undefined) return <h1 className="sr-only">Client</h1>;
  if (client === null) {
    return (
      <div className="mx-auto mt-12 max-w-md text-center">
        <h1 className="text-2xl font-bold text-fg">Client not found</h1>
        <p className="mt-2 text-fg-muted">
          It may have been deleted, or it belongs to a workspace this device doesn't have.
        </p>
        <Link to="/clients" className="mt-6 inline-block font-medium text-brand underline">
          Back to clients
        </Link>
      </div>
    );
  }
  return <ClientDetailContent client={client} />;
}

const statusOptions = clientStatuses.map((id) => ({ id, label: clientStatusLabels[id] }));

function ClientDetailContent({ client }: { client: LocalClient }) {
  const { handle } = useSync();
  const ctx = useWriteContext();
  const workspace = useWorkspace();
  const toaster = useToast();
  const navigate = useNavigate();
  const projects = useProjects(handle.db, workspace.id, {
    clientId: client.id,
    includeArchived: true,
  });
  const [confirmDelete, setConfirmDelete] = useState(false);

  const [errors, setErrors] = useState<Partial<Record<keyof ClientPatch, string>>>({});
  /** Saves one field; a refused value stays in its field with the message beside it. */
  const save = async (patch: ClientPatch): Promise<void> => {
    const fields = Object.keys(patch) as (keyof ClientPatch)[];
    let message: string | undefined;
    try {
      await updateClient(ctx, client.id, patch);
    } catch (error) {
      message = error instanceof LocalWriteError ? error.message : "Couldn't save this change.";
    }
    setErrors((current) => {
      const next = { ...current };
      for (const field of fields) {
        if (message === undefined) delete next[field];
        else next[field] = message;
      }
      return next;
    });
  };
  const text = (value: string) => (value.trim() === '' ? null : value);

  async function setArchived(archived: boolean) {
    await save({ archived });
    showUndoNotice(toaster, {
      message: archived ? `${client.name} archived` : `${client.name} restored`,
      undo: () => void save({ archived: !archived }),
      durationMs: 8000,
    });
  }

  async function remove() {
    const count = projects?.length ?? 0;
    const name = client.name;
    const mutationId = await deleteClient(ctx, client.id, {
      cascade: count > 0,
      undoWindowMs: UNDO_WINDOW_MS,
    });
    setConfirmDelete(false);
    void navigate({ to: '/clients' });
    showUndoNotice(toaster, {
      message: `${name} deleted`,
      durationMs: UNDO_WINDOW_MS,
      undo: () => {
        void cancelQueuedChange(handle.db, mutationId).then((undone) => {
          if (!undone) {
            toaster.show({
              tone: 'error',
              message: `Too late to undo: ${name} is already deleted.`,
            });
          }
        });
      },
    });
  }

  return (
    <div>
      <Link
        to="/clients"
        className="inline-flex min-h-11 items-center gap-1 text-sm font-medium text-fg-muted hover:text-fg sm:min-h-9"
      >
        <ArrowLeft aria-hidden="true" size={16} /> Clients
      </Link>
      <div className="mt-2 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold tracking-tight break-words text-fg">{client.name}</h1>
          <p className="mt-2 flex flex-wrap items-center gap-2 text-sm text-fg-muted">
            <span className={clientStatusBadgeClass(client.status)}>
              {clientStatusLabels[client.status]}
            </span>
            {client.archived ? <span>Archived</span> : null}
            {client.company ? <span>{client.company}</span> : null}
            {client._pending > 0 ? <span>Not synced yet</span> : null}
          </p>
        </div>
        <div className="flex gap-2">
          <Button variant="secondary" onPress={() => void setArchived(!client.archived)}>
            {client.archived ? (
              <>
                <ArchiveRestore aria-hidden="true" size={16} /> Restore
              </>
            ) : (
              <>
                <Archive aria-hidden="true" size={16} /> Archive
              </>
            )}
          </Button>
          <Button variant="secondary" onPress={() => setConfirmDelete(true)}>
            <Trash2 aria-hidden="true" size={16} /> Delete
          </Button>
        </div>
      </div>

      <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <section
          aria-labelledby="client-details"
          className="rounded-2xl border border-border bg-surface p-5"
        >
          <h2 id="client-details" className="font-semibold text-fg">
            Details
          </h2>
          <p className="text-sm text-fg-muted">Changes save when you leave a field.</p>
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <InlineTextField
              name="name"
              error={errors.name}
              label="Name"
              value={client.name}
              onSave={(value) => save({ name: value })}
            />
            <InlineTextField
              name="company"
              error={errors.company}
              label="Company"
              value={client.company ?? ''}
              onSave={(value) => save({ company: text(value) })}
            />
            <InlineTextField
              name="email"
              error={errors.email}
              label="Email"
              type="email"
              value={client.email ?? ''}
              onSave={(value) => save({ email: text(value) })}
            />
            <InlineTextField
              name="phone"
              error={errors.phone}
              label="Phone"
              type="tel"
              value={client.phone ?? ''}
              onSave={(value) => save({ phone: text(value) })}
            />
            <InlineTextField
              name="website"
              error={errors.website}
              label="Website"
              type="url"
              placeholder="https://"
              value={client.website ?? ''}
              onSave={(value) => save({ website: text(value) })}
            />
            <SelectField
              label="Status"
              options={statusOptions}
              value={client.status}
              onChange={(status: ClientStatus) => void save({ status })}
            />
            <InlineTextField
              name="currency"
              error={errors.currency}
              label="Currency"
              description="3-letter code, like EUR"
              value={client.currency}
              onSave={(value) => save({ currency: value.trim().toUpperCase() })}
            />
            <InlineTextField
              name="tags"
              error={errors.tags}
              label="Tags"
              description="Separated by commas"
              value={client.tags.join(', ')}
              onSave={(value) => save({ tags: parseTags(value) })}
            />
            <InlineTextField
              name="timeZone"
              error={errors.timeZone}
              label="Time zone"
              placeholder="Europe/Paris"
              value={client.timeZone ?? ''}
              onSave={(value) => save({ timeZone: text(value) })}
            />
            <InlineTextField
              name="locale"
              error={errors.locale}
              label="Locale"
              placeholder="fr-FR"
              value={client.locale ?? ''}
              onSave={(value) => save({ locale: text(value) })}
            />
          </div>
          <div className="mt-4 grid gap-4">
            <InlineTextField
              name="address"
              error={errors.address}
              label="Address"
              multiline
              value={client.address ?? ''}
              onSave={(value) => save({ address: text(value) })}
            />
            <InlineTextField
              name="notesSummary"
              error={errors.notesSummary}
              label="Notes"
              multiline
              value={client.notesSummary ?? ''}
              onSave={(value) => save({ notesSummary: text(value) })}
            />
          </div>
        </section>

        <div className="flex flex-col gap-6 self-start">
          <section
            aria-labelledby="client-projects"
            className="rounded-2xl border border-border bg-surface p-5"
          >
            <div className="flex items-center justify-between gap-2">
              <h2 id="client-projects" className="font-semibold text-fg">
                Projects
              </h2>
              <Link
                to="/projects"
                search={{ client: client.id }}
                className="text-sm font-medium text-brand underline-offset-2 hover:underline"
              >
                All in Projects
              </Link>
            </div>
            {projects === undefined ? null : projects.length === 0 ? (
              <div className="mt-4 text-center text-sm text-fg-muted">
                <FolderKanban aria-hidden="true" size={24} className="mx-auto" />
                <p className="mt-2">No projects for {client.name} yet.</p>
                <p>Create one in Projects and choose this client.</p>
              </div>
            ) : (
              <ul className="mt-3 divide-y divide-border">
                {projects.map((project) => (
                  <li key={project.id}>
                    <Link
                      to="/projects/$projectId/$clientId"
                      params={{ projectId: project.id, clientId: client.id }}
                      className="flex min-h-12 items-center justify-between gap-3 py-2 hover:text-brand"
                    >
                      <span className="min-w-0 truncate font-medium">
                        {project.name}
                        {project.archived ? (
                          <span className="ml-2 text-xs font-normal text-fg-muted">Archived</span>
                        ) : null}
                      </span>
                      <ProjectStatusBadge status={project.status} />
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </section>

          <section
            aria-labelledby="client-files"
            className="rounded-2xl border border-border bg-surface p-5"
          >
            <h2 id="client-files" className="mb-2 font-semibold text-fg">
              Files
            </h2>
            <ClientFiles client={client} />
          </section>

          <section
            aria-labelledby="client-notes"
            className="rounded-2xl border border-border bg-surface p-5"
          >
            <h2 id="client-notes" className="mb-3 font-semibold text-fg">
              Notes
            </h2>
            <ClientNotes client={client} />
          </section>
        </div>
      </div>

      <ConfirmDialog
        isOpen={confirmDelete}
        title={`Delete ${client.name}?`}
        confirmLabel="Delete"
        isDestructive
        onConfirm={() => void remove()}
        onCancel={() => setConfirmDelete(false)}
      >
        {projects && projects.length > 0
          ? `This also deletes ${projects.length === 1 ? 'its project' : `its ${projects.length} projects`}. `
          : ''}
        You can undo for a few seconds; after that it is gone on every device.
      </ConfirmDialog>
    </div>
  );
}
