/**
 * The portal's server, played in the browser for the public demo (/client-portal-demo): a
 * `callEndpoint` over the sample project of portal-demo-data.ts, held in memory, so the real
 * portal screen runs on it and nothing reaches a server. It never calls fetch.
 *
 * It keeps the rules of the real handlers (server/endpoints/client-portal.ts and
 * client-portal-answers.ts) so the demo shows what a client would meet:
 * - input is checked with the contract's own schemas (a 400 VALIDATION_FAILED with `body.<field>`
 *   details, e.g. asking for changes without a comment), and every answer is parsed with the
 *   operation's output schema, so a shape the contract refuses fails here, loudly;
 * - only the session's project, client and workspace answer; any other id is a 403, as are a
 *   milestone or file a member hid;
 * - an approved milestone cannot be signed off again, and only a quote waiting for an answer can
 *   be accepted or declined (409); a change request sent twice with the same id is stored once;
 * - at most 30 new change requests an hour (429).
 * The session itself is always live: the demo has no password gate.
 */
import * as v from 'valibot';
import type { CallEndpoint, EndpointDefinition } from '#contract/define-endpoint.ts';
import {
  decideChangeRequest,
  generateSasUrl,
  getClientProject,
  getPortalChangeRequests,
  getPortalFiles,
  getPortalMilestones,
  getPortalWorkspaceSettings,
  signOffMilestone,
  signOutPortal,
  submitChangeRequest,
  PORTAL_UPLOAD_FOLDER,
  type PortalChangeRequest,
  type PortalMilestone,
} from '#contract/endpoints/client-portal.ts';
import {
  DEMO_CLIENT_ID,
  DEMO_PROJECT_ID,
  portalDemoSeed,
  type PortalDemoFile,
  type PortalDemoSeed,
} from './portal-demo-data.ts';
import type { PortalSnapshot } from './portal-snapshot.ts';
import { PortalUploadError, type PortalUploadFile } from './portal-upload.ts';

/** The same limit as the server's portalChangeRequestRateLimit. */
const CHANGE_REQUESTS_PER_HOUR = 30;
const HOUR_MS = 60 * 60_000;

export interface PortalDemoOptions {
  /** The day the sample project is dated from (local midnight). */
  today: Date;
  now?: () => number;
  /**
   * How long the client's actions take to answer, in ms, so their "sending" states show as they
   * would over a network. Reads answer at once: the page opens as fast as its copy.
   */
  actionDelayMs?: number;
}

export interface PortalDemo {
  readonly projectId: string;
  readonly clientId: string;
  readonly callEndpoint: CallEndpoint;
  /** The project as the page would have kept it from a previous visit: painted before any answer. */
  snapshot(): PortalSnapshot;
  /** The sample file behind a link `generate-sas-url` answered, or null for any other URL. */
  fileOfLink(url: string): { name: string; bytes: Blob } | null;
  /**
   * A file the visitor attaches, "uploaded" in a few steps and kept in memory like the server
   * would keep it: in the project's From client folder, shown among the files.
   */
  uploadFile: PortalUploadFile;
}

interface ErrorDetail {
  path: string;
  message: string;
}

/** A refusal shaped like the app's ApiError (status and the server's error body). */
function demoError(status: number, code: string, message: string, details?: unknown): Error {
  return Object.assign(new Error(message), {
    name: 'ApiError',
    status,
    body: {
      error: { code, message, ...(details === undefined ? {} : { details }), requestId: 'demo' },
    },
  });
}

const forbidden = (message: string) => demoError(403, 'FORBIDDEN', message);
const conflict = (message: string, details?: unknown) =>
  demoError(409, 'CONFLICT', message, details);

/** The server's parseInput: the operation's schema, or a 400 listing every failing path. */
function parseInput<S extends v.GenericSchema>(
  where: 'query' | 'body',
  schema: S,
  value: unknown,
): v.InferOutput<S> {
  if (where === 'body' && value === undefined) {
    throw demoError(400, 'VALIDATION_FAILED', 'A JSON request body is required.', [
      { path: 'body', message: 'Required' },
    ]);
  }
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  const details: ErrorDetail[] = result.issues.map((issue) => ({
    path: [where, ...(issue.path?.map((item) => String(item.key)) ?? [])].join('.'),
    message: issue.message,
  }));
  const first = details[0];
  throw demoError(
    400,
    'VALIDATION_FAILED',
    first ? `Invalid ${first.path}: ${first.message}` : `Invalid ${where}.`,
    details,
  );
}

function toPortalMilestone({
  visibleToClient: _hidden,
  ...milestone
}: PortalDemoSeed['milestones'][number]): PortalMilestone {
  return milestone;
}

function toPortalFile({ visibleToClient: _hidden, content: _bytes, ...file }: PortalDemoFile) {
  return file;
}

/** Base64 of text's UTF-8 bytes. */
function base64Of(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createPortalDemo({
  today,
  now = Date.now,
  actionDelayMs = 0,
}: PortalDemoOptions): PortalDemo {
  const state = portalDemoSeed(today);
  const { project, workspace } = state;
  /** When each new change request was stored, for the hourly limit. */
  const created: number[] = [];
  /** Links handed out, by URL: the file each stands for. */
  const links = new Map<string, PortalDemoFile>();
  const iso = () => new Date(now()).toISOString();
  /** Files the visitor attached so far (their ids and blob names count up). */
  let uploads = 0;

  const requireOwnProject = (projectId: string) => {
    if (projectId !== project.id) throw forbidden('This portal session opens another project.');
  };

  const milestones = () =>
    state.milestones
      .filter((m) => m.visibleToClient)
      .sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0))
      .map(toPortalMilestone);
  const files = () =>
    state.files
      .filter((f) => f.visibleToClient)
      .sort(
        (a, b) =>
          a.folder.localeCompare(b.folder) ||
          a.name.toLowerCase().localeCompare(b.name.toLowerCase()) ||
          a.id.localeCompare(b.id),
      )
      .map(toPortalFile);
  const changeRequests = () =>
    [...state.changeRequests].sort(
      (a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id),
    );
  const replaceChangeRequest = (row: PortalChangeRequest) => {
    state.changeRequests = state.changeRequests.map((r) => (r.id === row.id ? row : r));
  };

  type Handler = (input: { query?: unknown; body?: unknown }) => unknown;
  const handlers: Record<string, [EndpointDefinition, Handler]> = {};
  const on = <E extends EndpointDefinition>(
    endpoint: E,
    handle: (input: {
      query: v.InferOutput<E['query']>;
      body: E['body'] extends v.GenericSchema ? v.InferOutput<E['body']> : undefined;
    }) => v.InferInput<E['output']>,
  ) => {
    handlers[endpoint.operation] = [
      endpoint,
      (input) =>
        handle({
          query: parseInput('query', endpoint.query, input.query),
          body: (endpoint.body === undefined
            ? undefined
            : parseInput('body', endpoint.body, input.body)) as never,
        }),
    ];
  };

  on(signOutPortal, () => ({ signedOut: true as const }));

  on(getClientProject, ({ query }) => {
    requireOwnProject(query.id);
    return { project };
  });

  on(getPortalMilestones, ({ query }) => {
    requireOwnProject(query.projectId);
    return { milestones: milestones() };
  });

  on(getPortalFiles, ({ query }) => {
    requireOwnProject(query.projectId);
    return { files: files() };
  });

  on(getPortalWorkspaceSettings, ({ query }) => {
    if (query.workspaceId !== workspace.id) {
      throw forbidden('This portal session opens another workspace.');
    }
    return { workspace };
  });

  on(getPortalChangeRequests, ({ query }) => {
    requireOwnProject(query.projectId);
    return { changeRequests: changeRequests() };
  });

  on(generateSasUrl, ({ query }) => {
    requireOwnProject(query.projectId);
    // Only the latest blob of a file the client can see.
    const file = state.files.find((f) => f.visibleToClient && f.blobName === query.blobName);
    if (!file) throw forbidden('This file is not shared in this portal.');
    // A data: URL carries the sample bytes themselves: no server, and nothing to revoke. A file
    // the visitor attached is already a Blob in the page: a blob: URL of it.
    const sasUrl =
      typeof file.content === 'string'
        ? `data:${file.type};base64,${base64Of(file.content)}`
        : URL.createObjectURL(file.content);
    links.set(sasUrl, file);
    return { sasUrl, expiresAt: new Date(now() + query.expiryMinutes * 60_000).toISOString() };
  });

  on(signOffMilestone, ({ body }) => {
    requireOwnProject(body.projectId);
    const current = state.milestones.find((m) => m.id === body.milestoneId && m.visibleToClient);
    if (!current) throw forbidden('This milestone is not shared in this portal.');
    if (current.status === 'approved') throw conflict('This milestone is already approved.');
    const updated = {
      ...current,
      status: body.decision,
      signOff: {
        decision: body.decision,
        by: project.clientName,
        at: iso(),
        comment: body.comment ? body.comment : null,
      },
    };
    state.milestones = state.milestones.map((m) => (m.id === updated.id ? updated : m));
    return { milestone: toPortalMilestone(updated) };
  });

  on(submitChangeRequest, ({ body }) => {
    requireOwnProject(body.projectId);
    const found = state.changeRequests.find((r) => r.id === body.id);
    if (found) {
      // The same request sent again (the page's offline queue retrying): stored once.
      if (found.source === 'portal') return { changeRequest: found };
      throw conflict('A change request with this id already exists.');
    }
    const at = now();
    const recent = created.filter((t) => at - t < HOUR_MS);
    if (recent.length >= CHANGE_REQUESTS_PER_HOUR) {
      const retryAfterSeconds = Math.ceil((Math.min(...recent) + HOUR_MS - at) / 1000);
      throw demoError(
        429,
        'RATE_LIMITED',
        `Too many attempts. Try again in ${Math.ceil(retryAfterSeconds / 60)} minutes.`,
        { retryAfterSeconds },
      );
    }
    const visible = new Set(files().map((f) => f.id));
    const attachments = [...new Set(body.attachmentFileIds ?? [])];
    const unknown = attachments.findIndex((fileId) => !visible.has(fileId));
    if (unknown >= 0) {
      throw demoError(422, 'BUSINESS_RULE', 'An attached file is not one of this project.', [
        {
          path: `attachmentFileIds.${unknown}`,
          message: 'Upload the file again, then send the request.',
        },
      ]);
    }
    created.push(at);
    const changeRequest: PortalChangeRequest = {
      id: body.id,
      title: body.title,
      description: body.description ?? null,
      desiredDate: body.desiredDate ?? null,
      status: 'submitted',
      costImpact: null,
      currency: state.currency,
      scheduleImpactDays: null,
      answer: null,
      clientDecision: null,
      source: 'portal',
      attachmentFileIds: attachments,
      createdAt: new Date(at).toISOString(),
      updatedAt: new Date(at).toISOString(),
    };
    state.changeRequests = [changeRequest, ...state.changeRequests];
    return { changeRequest };
  });

  on(decideChangeRequest, ({ body }) => {
    requireOwnProject(body.projectId);
    const current = state.changeRequests.find((r) => r.id === body.id);
    if (!current) throw forbidden('This change request is not in this portal.');
    if (current.status !== 'quoted') {
      throw conflict('This change request has no quote waiting for your answer.', {
        status: current.status,
      });
    }
    const updated: PortalChangeRequest = {
      ...current,
      status: body.decision === 'accepted' ? 'accepted' : 'quote_declined',
      clientDecision: {
        decision: body.decision,
        at: iso(),
        comment: body.comment ? body.comment : null,
      },
      updatedAt: iso(),
    };
    replaceChangeRequest(updated);
    return { changeRequest: updated };
  });

  const callEndpoint = (async (endpoint, input) => {
    const entry = handlers[endpoint.operation];
    // Reads answer in the same task order as any promise; actions take a moment, as online.
    if (endpoint.method === 'GET') await Promise.resolve();
    else await delay(actionDelayMs);
    if (!entry || entry[0] !== (endpoint as EndpointDefinition)) {
      throw demoError(404, 'NOT_FOUND', 'The portal demo does not answer this.');
    }
    const [definition, handle] = entry;
    // Parsed like the app's client parses a server's answer: a shape the contract refuses throws.
    return v.parse(definition.output, handle(input as { query?: unknown; body?: unknown }));
  }) as CallEndpoint;

  return {
    projectId: DEMO_PROJECT_ID,
    clientId: DEMO_CLIENT_ID,
    callEndpoint,
    snapshot: () => ({
      savedAt: now(),
      project,
      milestones: milestones(),
      files: files(),
      workspace,
      changeRequests: changeRequests(),
    }),
    uploadFile(file, { projectId, onProgress }) {
      let stopped = false;
      const done = new Promise<string>((resolve, reject) => {
        const steps = 4;
        const step = (index: number) => {
          if (stopped) {
            reject(new PortalUploadError('The upload was stopped.', 0));
            return;
          }
          if (index < steps) {
            onProgress(Math.round((file.size * index) / steps), file.size);
            setTimeout(() => step(index + 1), actionDelayMs / steps);
            return;
          }
          if (projectId !== project.id) {
            reject(new PortalUploadError('This portal session opens another project.', 403));
            return;
          }
          uploads += 1;
          const id = `00000000-0000-4000-8000-${String(900_000_000_000 + uploads)}`;
          state.files.push({
            id,
            name: file.name,
            folder: PORTAL_UPLOAD_FOLDER,
            size: file.size,
            type: file.type,
            blobName: `demo-upload-${uploads}`,
            version: 1,
            updatedAt: iso(),
            visibleToClient: true,
            content: file,
          });
          onProgress(file.size, file.size);
          resolve(id);
        };
        step(0);
      });
      return {
        done,
        abort: () => {
          stopped = true;
        },
      };
    },
    fileOfLink(url) {
      const file = links.get(url);
      if (!file) return null;
      return { name: file.name, bytes: new Blob([file.content], { type: file.type }) };
    },
  };
}
