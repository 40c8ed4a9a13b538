/**
 * The demo's API client: nothing is ever sent to the server. The reads of server-backed panels
 * answer sample values from the demo's database (demo-answers.ts); every other call answers at
 * once with the contract's error shape (503 UNAVAILABLE) and a message that says what the
 * visitor's own account would do there, so a screen that needs the server shows its usual error
 * with a clear reason (opening a demo file, sharing a portal link, buying a plan...).
 */
import { ApiError } from '../api-client/call-endpoint.ts';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { createAppDatabase, type AppDatabase } from '../db/app-database.ts';
import { answerInDemo, type DemoQuery } from './demo-answers.ts';
import { DEMO_FILE_NOTE, DEMO_USER_ID } from './demo-mode.ts';

/** What an account does with each resource, in the words the message ends with. */
const purposes: Readonly<Record<string, string>> = {
  file: 'upload, open and share real files (the demo’s files are samples with no contents)',
  'file-storage': 'upload, open and share real files',
  'file-share-link': 'share files by link',
  'shared-file': 'share files by link',
  'client-portal': 'share projects with your clients in the portal',
  payment: 'send invoices and take payments',
  subscription: 'choose a plan',
  'workspace-invite': 'invite your team',
  'workspace-member': 'invite your team',
  workspace: 'keep your business details',
  user: 'keep your profile',
  account: 'manage your account',
  notifications: 'get notifications from your team and clients',
  'project-activity': 'see the history of every change',
  calendar: 'subscribe to your calendar from other apps',
};

export function demoUnavailableMessage(resource: string): string {
  return `Not available in the demo: create your account to ${purposes[resource] ?? 'use this'}.`;
}

export interface DemoApiOptions {
  /** The demo's database (a connection of its own: sync holds another); opened on first use. */
  openDatabase?: () => AppDatabase;
}

export function createDemoApiClient(options: DemoApiOptions = {}): { callEndpoint: CallEndpoint } {
  let db: AppDatabase | null = null;
  const database = () =>
    (db ??= (options.openDatabase ?? (() => createAppDatabase(DEMO_USER_ID)))());
  const unavailable = (message: string) =>
    new ApiError(503, { error: { code: 'UNAVAILABLE', message, requestId: 'demo' } });
  const callEndpoint = (async (endpoint, input) => {
    // Opening, previewing or downloading any file asks for its link first.
    if (endpoint.operation === 'get-download-url') throw unavailable(DEMO_FILE_NOTE);
    if (endpoint.method === 'GET') {
      const answer = await answerInDemo(endpoint, input.query as DemoQuery, database());
      if (answer !== undefined) return answer;
    }
    throw unavailable(demoUnavailableMessage(endpoint.resource));
  }) as CallEndpoint;
  return { callEndpoint };
}
