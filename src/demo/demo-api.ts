/**
 * The demo's API client: nothing is ever sent to the server. Every call answers at once with the
 * contract's error shape (503 UNAVAILABLE) and a message that says what the visitor's own account
 * would do there, so a screen that needs the server shows its usual error with a clear reason
 * (opening a demo file, the activity feed, sharing a portal link, billing...).
 */
import { ApiError } from '../api-client/call-endpoint.ts';
import type { CallEndpoint } from '#contract/define-endpoint.ts';

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
  notifications: 'get notifications from your team and clients',
  'project-activity': 'see the history of every change',
  calendar: 'subscribe to your calendar from other apps',
};

export function demoUnavailableMessage(resource: string): string {
  return `Not available in the demo: create your account to ${purposes[resource] ?? 'use this'}.`;
}

export function createDemoApiClient(): { callEndpoint: CallEndpoint } {
  const callEndpoint: CallEndpoint = (endpoint) =>
    Promise.reject(
      new ApiError(503, {
        error: {
          code: 'UNAVAILABLE',
          message: demoUnavailableMessage(endpoint.resource),
          requestId: 'demo',
        },
      }),
    );
  return { callEndpoint };
}
