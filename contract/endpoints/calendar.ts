/**
 * The calendar's subscription feed (issue 15): one secret URL per user that calendar apps
 * (Google, Apple, Outlook) poll, `GET /api/calendar.ics?token=<secret>`. The feed itself is
 * text/calendar, served beside the API (server/calendar/calendar-feed-route.ts), since calendar
 * apps send no bearer token; these operations manage its secret from Settings.
 *
 * The secret is shown once, when made: the server keeps only its SHA-256. Making a new one
 * replaces the old (its URL stops at once); revoking leaves none.
 */
import * as v from 'valibot';
import { defineEndpoint, emptyQuerySchema } from '../define-endpoint.ts';
import { text } from '../text.ts';

export const CALENDAR_FEED_PATH = '/api/calendar.ics';

/** The secret in the URL: 32 random bytes, base64url. */
export const calendarFeedTokenSchema = v.pipe(
  text(),
  v.regex(/^[A-Za-z0-9_-]{43}$/, 'Not a calendar feed token'),
);

export const calendarFeedSchema = v.object({
  createdAt: text(),
  /** When a calendar app last read the feed (null: not yet). */
  lastUsedAt: v.nullable(text()),
});
export type CalendarFeed = v.InferOutput<typeof calendarFeedSchema>;

export const getCalendarFeed = defineEndpoint({
  resource: 'calendar',
  operation: 'get-calendar-feed',
  method: 'GET',
  auth: 'user',
  summary: 'Whether you have a calendar subscription feed, and when it was made and last read.',
  query: emptyQuerySchema,
  output: v.object({ feed: v.nullable(calendarFeedSchema) }),
});

export const createCalendarFeed = defineEndpoint({
  resource: 'calendar',
  operation: 'create-calendar-feed',
  method: 'POST',
  auth: 'user',
  summary:
    'A new secret feed URL for your calendar app (shown only now); any earlier URL stops working.',
  query: emptyQuerySchema,
  output: v.object({ feed: calendarFeedSchema, url: text(), token: calendarFeedTokenSchema }),
  secretOutput: true,
});

export const revokeCalendarFeed = defineEndpoint({
  resource: 'calendar',
  operation: 'revoke-calendar-feed',
  method: 'DELETE',
  auth: 'user',
  summary: 'Turn your calendar feed off: its URL answers 404 from now on.',
  query: emptyQuerySchema,
  output: v.object({ revoked: v.boolean() }),
});
