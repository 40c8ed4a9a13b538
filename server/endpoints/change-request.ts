/**
 * Change request rules beside the derived CRUD (synced-entity-handlers.ts):
 * - a member sets only the members' statuses; 'accepted' and 'quote_declined' are the client's
 *   answer to a quote, written by the portal (client-portal.ts), so a 422 names the field;
 * - once the client accepted a quote, its status and terms (cost, currency, days) are settled:
 *   a member changing them would rewrite what the client agreed to (a 409);
 * - a new quote after a declined one clears the old answer, so the client answers the new one;
 * - when a member answers (quote, approval, decline), the client is mailed, after the commit, if
 *   the client has an email address; with the portal on, the mail links to it.
 */
import {
  changeRequestStatusWords,
  memberChangeRequestStatuses,
  type ChangeRequestStatus,
} from '#contract/entities/change-request.ts';
import { portalPath } from '#contract/endpoints/client-portal.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { EntityHooks } from './entity-handlers.ts';

type Row = Record<string, unknown>;

export interface ChangeRequestDeps {
  mailer: Mailer;
  /** Where the app is served, for the portal link; null: the mail says to open the portal. */
  publicUrl: string | null;
}

const MEMBER_STATUSES: readonly string[] = memberChangeRequestStatuses;
/** What the client agreed to when accepting a quote. */
const QUOTE_TERMS = ['costImpact', 'currency', 'scheduleImpactDays'] as const;
/** A member's answer the client hears of. */
const ANSWERS: readonly ChangeRequestStatus[] = ['quoted', 'approved', 'declined'];

function refuseClientStatus(status: unknown): void {
  if (status === undefined || (typeof status === 'string' && MEMBER_STATUSES.includes(status)))
    return;
  throw new AppError(
    ErrorCode.VALIDATION_FAILED,
    'Only the client accepts or declines a quote, in the client portal.',
    { details: [{ path: 'body.status', message: 'Choose New, Quote sent, Approved or Declined' }] },
  );
}

/** "USD 1,250.00", "-EUR 80.00", "JPY 5,000": minor units in words a mail can carry. */
export function moneyWords(minor: number, currency: string): string {
  // Minor units per major unit follow the currency (a yen has none, a dinar has three).
  let digits = 2;
  try {
    digits =
      new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2;
  } catch {
    // Not a currency Intl knows: cents it is.
  }
  const sign = minor < 0 ? '-' : '';
  const units = Math.abs(minor) / 10 ** digits;
  return `${sign}${currency} ${units.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
}

interface MailTarget {
  email: string | null;
  client_name: string;
  client_id: string;
  project_name: string;
  workspace_name: string;
  portal_on: boolean;
}

async function mailTarget(tx: Queryable, projectId: string): Promise<MailTarget | undefined> {
  const { rows } = await tx.query<MailTarget>(
    `SELECT c.email, c.name AS client_name, c.id AS client_id, p.name AS project_name,
            w.name AS workspace_name, coalesce(pp.enabled, false) AS portal_on
     FROM project p
     JOIN client c ON c.id = p.client_id
     JOIN workspace w ON w.id = p.workspace_id
     LEFT JOIN project_portal pp ON pp.project_id = p.id
     WHERE p.id = $1`,
    [projectId],
  );
  return rows[0];
}

/** The mail telling the client of a member's answer. */
export function answerMail(
  target: MailTarget & { email: string },
  request: Row,
  portalUrl: string | null,
): { to: string; subject: string; text: string } {
  const status = request.status as ChangeRequestStatus;
  const title = String(request.title);
  const headline =
    status === 'quoted'
      ? `${target.workspace_name} sent a quote for your change request “${title}”.`
      : `${target.workspace_name} ${changeRequestStatusWords[status].toLowerCase()} your change request “${title}”.`;
  const lines = [`Hello ${target.client_name},`, '', headline, ''];
  if (typeof request.costImpact === 'number') {
    lines.push(`Cost: ${moneyWords(request.costImpact, String(request.currency))}`);
  }
  if (typeof request.scheduleImpactDays === 'number') {
    const days = request.scheduleImpactDays;
    lines.push(`Timeline: ${days > 0 ? '+' : ''}${days} day${Math.abs(days) === 1 ? '' : 's'}`);
  }
  if (typeof request.answer === 'string' && request.answer.trim() !== '') {
    lines.push('', request.answer.trim());
  }
  lines.push('');
  if (portalUrl) {
    lines.push(
      status === 'quoted'
        ? `Accept or decline the quote in the project's portal: ${portalUrl}`
        : `See it in the project's portal: ${portalUrl}`,
    );
  }
  lines.push('', `Project: ${target.project_name}`);
  return {
    to: target.email,
    subject:
      status === 'quoted'
        ? `Quote for your change request: ${title}`
        : `Your change request was ${changeRequestStatusWords[status].toLowerCase()}: ${title}`,
    text: lines.join('\n'),
  };
}

export function createChangeRequestHooks(deps: ChangeRequestDeps): EntityHooks {
  return {
    beforeCreate({ body }) {
      refuseClientStatus(body.status);
      return Promise.resolve();
    },
    async beforeUpdate({ tx, current, patch, afterCommit }) {
      refuseClientStatus(patch.status);
      const from = current.status as ChangeRequestStatus;
      const to = (patch.status ?? from) as ChangeRequestStatus;
      const agreed = QUOTE_TERMS.filter(
        (key) => key in patch && JSON.stringify(patch[key]) !== JSON.stringify(current[key]),
      );
      if (from === 'accepted' && (to !== from || agreed.length > 0)) {
        throw new AppError(
          ErrorCode.CONFLICT,
          'The client accepted this quote as it stands: record a new change request for further changes.',
          { details: { fields: to !== from ? ['status', ...agreed] : agreed } },
        );
      }
      const next: Row =
        to === 'quoted' && from !== 'quoted' ? { ...patch, clientDecision: null } : patch;
      if (to !== from && ANSWERS.includes(to)) {
        const target = await mailTarget(tx, String(current.projectId));
        const email = target?.email;
        if (target && email) {
          const url =
            target.portal_on && deps.publicUrl
              ? `${deps.publicUrl}${portalPath(target.client_id, String(current.projectId))}`
              : null;
          const mail = answerMail({ ...target, email }, { ...current, ...next }, url);
          afterCommit(() => deps.mailer.send(mail));
        }
      }
      return next;
    },
  };
}
