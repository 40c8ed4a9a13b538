/**
 * The ICS subscription feed (issue 15): `GET /api/calendar.ics?token=<secret>`, what Google
 * Calendar, Apple Calendar and Outlook poll. Calendar apps send no bearer token, so the secret in
 * the URL is the credential: 32 random bytes, kept only as its SHA-256 (`calendar_feed`), one per
 * user, replaced when regenerated and deleted when revoked. A missing, malformed, revoked or
 * unknown token answers the same 404 in the contract's error shape, so a guess learns nothing.
 *
 * What the feed holds, for the token's user, across every workspace they are a member of (read
 * at request time, so a membership that ended takes its workspace's items with it):
 * - milestones with a due date (all day), UID `milestone-<id>@<host>`;
 * - tasks with a due date assigned to the user and not in a done column, UID `task-<id>@<host>`;
 * - calendar events, UID `event-<id>@<host>`: all-day ones as DATE values (DTEND the day after
 *   the last day, as RFC 5545 wants), timed ones as UTC instants (`…Z`), which every calendar app
 *   shows in its own zone, so no VTIMEZONE is needed; a reminder becomes a VALARM.
 * SEQUENCE is the row's version (the change-log sequence of its last write: it only grows) and
 * LAST-MODIFIED/DTSTAMP its update time, so apps see an edit as a new revision of the same UID.
 * Items that ended more than a year ago are left out to keep the feed small.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import ical, { ICalAlarmType } from 'ical-generator';
import { CALENDAR_FEED_PATH, calendarFeedTokenSchema } from '#contract/endpoints/calendar.ts';
import * as v from 'valibot';
import type { Database, Queryable } from '../db/database.ts';
import type { AppEnv } from '../http/app-env.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { EndpointHandlers } from '../http/endpoint-handler.ts';

const NO_FEED = 'There is no calendar feed at this address. Make a new one in Settings.';

export function hashFeedToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

export function newFeedToken(): string {
  return randomBytes(32).toString('base64url');
}

function iso(value: unknown): string {
  return new Date(value as string | Date).toISOString();
}

export function calendarFeedUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/$/, '')}${CALENDAR_FEED_PATH}?token=${token}`;
}

/** Settings: see, make (or remake) and revoke one's feed secret. */
type FeedHandlers = Pick<
  EndpointHandlers,
  'calendar/get-calendar-feed' | 'calendar/create-calendar-feed' | 'calendar/revoke-calendar-feed'
>;

export function createCalendarFeedHandlers(publicUrl: string): FeedHandlers {
  return {
    'calendar/get-calendar-feed': async ({ identity, tx }) => {
      const { rows } = await tx.query<{ created_at: unknown; last_used_at: unknown }>(
        'SELECT created_at, last_used_at FROM calendar_feed WHERE user_id = $1',
        [identity.userId],
      );
      const row = rows[0];
      return {
        feed: row
          ? {
              createdAt: iso(row.created_at),
              lastUsedAt: row.last_used_at ? iso(row.last_used_at) : null,
            }
          : null,
      };
    },
    'calendar/create-calendar-feed': async ({ identity, tx }) => {
      const token = newFeedToken();
      const { rows } = await tx.query<{ created_at: unknown }>(
        `INSERT INTO calendar_feed (user_id, token_hash) VALUES ($1, $2)
         ON CONFLICT (user_id) DO UPDATE
           SET token_hash = excluded.token_hash, created_at = now(), last_used_at = NULL
         RETURNING created_at`,
        [identity.userId, hashFeedToken(token)],
      );
      return {
        feed: { createdAt: iso(rows[0]?.created_at), lastUsedAt: null },
        url: calendarFeedUrl(publicUrl, token),
        token,
      };
    },
    'calendar/revoke-calendar-feed': async ({ identity, tx }) => {
      const { rowCount } = await tx.query('DELETE FROM calendar_feed WHERE user_id = $1', [
        identity.userId,
      ]);
      return { revoked: rowCount > 0 };
    },
  };
}

interface DatedRow {
  id: string;
  title: string;
  description: string | null;
  due: string;
  version: string | number;
  created_at: unknown;
  updated_at: unknown;
  project_id: string;
  client_id: string;
  project_name: string;
  workspace_name: string;
}

interface EventRow {
  id: string;
  title: string;
  starts_at: string;
  ends_at: string;
  location: string | null;
  notes: string | null;
  reminder_minutes: number | null;
  version: string | number;
  created_at: unknown;
  updated_at: unknown;
  project_id: string | null;
  client_id: string | null;
  project_name: string | null;
  workspace_name: string;
}

/** The day after a YYYY-MM-DD date (an all-day DTEND is exclusive). */
export function dayAfter(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/** The feed's user for a token, or null (also for a malformed one). */
async function feedUser(db: Queryable, token: string | undefined): Promise<string | null> {
  if (token === undefined || !v.is(calendarFeedTokenSchema, token)) return null;
  const { rows } = await db.query<{ user_id: string }>(
    `UPDATE calendar_feed SET last_used_at = CASE
       WHEN last_used_at IS NULL OR last_used_at < now() - interval '5 minutes' THEN now()
       ELSE last_used_at END
     WHERE token_hash = $1 RETURNING user_id`,
    [hashFeedToken(token)],
  );
  return rows[0]?.user_id ?? null;
}

/** The ICS text of a user's feed. */
export async function renderCalendarFeed(
  db: Queryable,
  userId: string,
  publicUrl: string,
): Promise<string> {
  const host = new URL(publicUrl).host;
  const base = publicUrl.replace(/\/$/, '');
  const projectLink = (projectId: string, clientId: string, tab: string) =>
    `${base}/projects/${projectId}/${clientId}?tab=${tab}`;
  const member = 'SELECT workspace_id FROM workspace_member WHERE user_id = $1';
  const [milestones, tasks, events] = await Promise.all([
    db.query<DatedRow>(
      `SELECT m.id, m.title, m.description, to_char(m.due_date, 'YYYY-MM-DD') AS due, m.version,
              m.created_at, m.updated_at, p.id AS project_id, p.client_id, p.name AS project_name,
              w.name AS workspace_name
       FROM milestone m JOIN project p ON p.id = m.project_id JOIN workspace w ON w.id = m.workspace_id
       WHERE m.workspace_id IN (${member}) AND m.due_date IS NOT NULL
         AND m.due_date >= current_date - 366
       ORDER BY m.due_date, m.id`,
      [userId],
    ),
    db.query<DatedRow>(
      `SELECT t.id, t.title, t.description, to_char(t.due_date, 'YYYY-MM-DD') AS due, t.version,
              t.created_at, t.updated_at, p.id AS project_id, p.client_id, p.name AS project_name,
              w.name AS workspace_name
       FROM task t JOIN project p ON p.id = t.project_id JOIN workspace w ON w.id = t.workspace_id
       LEFT JOIN kanban_column k ON k.id = t.column_id
       WHERE t.workspace_id IN (${member}) AND t.assignee_id = $1 AND t.due_date IS NOT NULL
         AND t.due_date >= current_date - 366 AND coalesce(k.is_done, false) = false
       ORDER BY t.due_date, t.id`,
      [userId],
    ),
    db.query<EventRow>(
      `SELECT e.id, e.title, e.starts_at, e.ends_at, e.location, e.notes, e.reminder_minutes,
              e.version, e.created_at, e.updated_at, p.id AS project_id, p.client_id,
              p.name AS project_name, w.name AS workspace_name
       FROM calendar_event e JOIN workspace w ON w.id = e.workspace_id
       LEFT JOIN project p ON p.id = e.project_id
       WHERE e.workspace_id IN (${member})
         AND left(e.ends_at, 10) >= to_char(current_date - 366, 'YYYY-MM-DD')
       ORDER BY e.starts_at, e.id`,
      [userId],
    ),
  ]);

  const calendar = ical({
    name: 'Satchel',
    description: 'Milestones, your tasks and events from Satchel',
    prodId: { company: 'Satchel', product: 'Satchel', language: 'EN' },
    // Apps that honour it poll hourly (REFRESH-INTERVAL and X-PUBLISHED-TTL).
    ttl: 60 * 60,
  });
  const revision = (row: {
    version: string | number;
    created_at: unknown;
    updated_at: unknown;
  }) => ({
    sequence: Number(row.version),
    created: new Date(row.created_at as string),
    lastModified: new Date(row.updated_at as string),
    stamp: new Date(row.updated_at as string),
  });

  for (const row of milestones.rows) {
    calendar.createEvent({
      id: `milestone-${row.id}@${host}`,
      ...revision(row),
      allDay: true,
      start: row.due,
      end: dayAfter(row.due),
      summary: `Milestone: ${row.title}`,
      description: [`${row.project_name} · ${row.workspace_name}`, row.description ?? '']
        .filter(Boolean)
        .join('\n\n'),
      url: projectLink(row.project_id, row.client_id, 'milestones'),
    });
  }
  for (const row of tasks.rows) {
    calendar.createEvent({
      id: `task-${row.id}@${host}`,
      ...revision(row),
      allDay: true,
      start: row.due,
      end: dayAfter(row.due),
      summary: `Task due: ${row.title}`,
      description: [`${row.project_name} · ${row.workspace_name}`, row.description ?? '']
        .filter(Boolean)
        .join('\n\n'),
      url: projectLink(row.project_id, row.client_id, 'tasks'),
    });
  }
  for (const row of events.rows) {
    const allDay = row.starts_at.length === 10;
    calendar.createEvent({
      id: `event-${row.id}@${host}`,
      ...revision(row),
      allDay,
      start: row.starts_at,
      end: allDay ? dayAfter(row.ends_at) : row.ends_at,
      summary: row.title,
      description: [
        row.project_name ? `${row.project_name} · ${row.workspace_name}` : row.workspace_name,
        row.notes ?? '',
      ]
        .filter(Boolean)
        .join('\n\n'),
      ...(row.location ? { location: row.location } : {}),
      ...(row.project_id && row.client_id
        ? { url: projectLink(row.project_id, row.client_id, 'calendar') }
        : {}),
      ...(row.reminder_minutes !== null
        ? {
            alarms: [
              {
                type: ICalAlarmType.display,
                trigger: row.reminder_minutes * 60,
                description: row.title,
              },
            ],
          }
        : {}),
    });
  }
  return calendar.toString();
}

/** The route: the token's user's feed as text/calendar, or the contract's 404. */
export function createCalendarFeedRoute(deps: { db: Database; publicUrl: string }) {
  return async (c: Context<AppEnv>): Promise<Response> => {
    const userId = await feedUser(deps.db, c.req.query('token'));
    if (userId === null) throw new AppError(ErrorCode.NOT_FOUND, NO_FEED);
    const body = await renderCalendarFeed(deps.db, userId, deps.publicUrl);
    return c.body(body, 200, {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': 'inline; filename="satchel.ics"',
      // The secret is in the URL: no shared cache may keep the answer.
      'Cache-Control': 'private, no-store',
    });
  };
}
