// Calendar events and the ICS feed through the API, on PGlite and on PostgreSQL: the derived CRUD
// under resource `calendar` (`{events}`), the start/end rules (400, nothing stored), the project
// link (422 for another workspace's project), membership from the token, a deleted project
// unlinking its events, and the feed parsed back with ical.js (UIDs, DATE values, UTC instants,
// SEQUENCE, alarms, only the user's tasks), regenerated and revoked.
import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderKeyBetween } from '../../contract/entities/order-key.ts';
import { createRegisteredUserApp, type RegisteredUserApp } from '../fixtures/registered-user.ts';

type Json = Record<string, any>;

export function describeCalendar(label: string, options: { postgresUrl?: string }) {
  describe(`calendar on ${label}`, { timeout: 60_000 }, () => {
    let me: RegisteredUserApp;
    let other: RegisteredUserApp;
    let projectId: string;
    let clientId: string;
    let columnId: string;

    const create = (who: RegisteredUserApp, resource: string, operation: string, body: Json) =>
      who.call('POST', `/api/${resource}?endpoint=${operation}`, {
        id: randomUUID(),
        workspaceId: who.workspaceId,
        ...body,
      });
    const createEvent = (body: Json, who: RegisteredUserApp = me) =>
      create(who, 'calendar', 'create-calendar-event', body);
    const listEvents = async (who: RegisteredUserApp = me) =>
      (
        await who.call(
          'GET',
          `/api/calendar?endpoint=get-calendar-events&workspaceId=${who.workspaceId}`,
        )
      ).body.events as Json[];
    const feed = async (token: string) => {
      const response = await me.t.app.request(`/api/calendar.ics?token=${token}`);
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        text: await response.text(),
      };
    };

    beforeAll(async () => {
      me = await createRegisteredUserApp(options);
      other = await createRegisteredUserApp(options);
      clientId = (await create(me, 'client', 'create-client', { name: 'Acme' })).body.client.id;
      projectId = (await create(me, 'project', 'create-project', { clientId, name: 'Site' })).body
        .project.id;
      columnId = (
        await create(me, 'kanban', 'create-kanban-column', {
          projectId,
          name: 'To do',
          position: orderKeyBetween(null, null),
        })
      ).body.kanbanColumn.id;
    });
    afterAll(async () => {
      await other.t.cleanup();
      await me.t.cleanup();
    });

    it('creates, lists as {events}, updates and deletes events; instants are stored in UTC', async () => {
      const timed = await createEvent({
        title: 'Kick-off',
        start: '2026-03-02T10:00:00+01:00',
        end: '2026-03-02T11:30:00+01:00',
        location: 'Studio',
        reminderMinutes: 15,
        projectId,
      });
      expect(timed.status).toBe(200);
      expect(timed.body.calendarEvent).toMatchObject({
        start: '2026-03-02T09:00:00.000Z',
        end: '2026-03-02T10:30:00.000Z',
        projectId,
        reminderMinutes: 15,
        notes: null,
      });
      const allDay = await createEvent({
        title: 'Offsite',
        start: '2026-03-05',
        end: '2026-03-06',
      });
      expect(allDay.status).toBe(200);
      const events = await listEvents();
      expect(events.map((event) => event.title)).toEqual(['Kick-off', 'Offsite']);

      const id = allDay.body.calendarEvent.id as string;
      const moved = await me.call(
        'PATCH',
        `/api/calendar?endpoint=update-calendar-event&id=${id}`,
        {
          start: '2026-03-09',
          end: '2026-03-10',
        },
      );
      expect(moved.status).toBe(200);
      expect(moved.body.calendarEvent).toMatchObject({ start: '2026-03-09', end: '2026-03-10' });
      const got = await me.call('GET', `/api/calendar?endpoint=get-calendar-event&id=${id}`);
      expect(got.body.calendarEvent.start).toBe('2026-03-09');

      const removed = await me.call(
        'DELETE',
        `/api/calendar?endpoint=delete-calendar-event&id=${id}`,
      );
      expect(removed.body).toEqual({ deleted: true, id });
      expect((await listEvents()).map((event) => event.title)).toEqual(['Kick-off']);
    });

    it('refuses an event ending before it starts, or mixing dates and times, storing nothing', async () => {
      const before = await listEvents();
      const backwards = await createEvent({
        title: 'Backwards',
        start: '2026-03-02T10:00:00Z',
        end: '2026-03-02T09:00:00Z',
      });
      expect(backwards.status).toBe(400);
      expect(backwards.body.error.code).toBe('VALIDATION_FAILED');
      expect(backwards.body.error.details).toContainEqual(
        expect.objectContaining({ path: 'body.end' }),
      );
      const backwardsDays = await createEvent({
        title: 'B',
        start: '2026-03-05',
        end: '2026-03-04',
      });
      expect(backwardsDays.status).toBe(400);
      const mixed = await createEvent({
        title: 'M',
        start: '2026-03-05',
        end: '2026-03-05T10:00:00Z',
      });
      expect(mixed.status).toBe(400);
      const noZone = await createEvent({
        title: 'Z',
        start: '2026-03-05T10:00',
        end: '2026-03-05T11:00',
      });
      expect(noZone.status).toBe(400);
      expect(noZone.body.error.details).toContainEqual(
        expect.objectContaining({ path: 'body.start' }),
      );
      const badDay = await createEvent({ title: 'D', start: '2026-02-30', end: '2026-02-30' });
      expect(badDay.status).toBe(400);
      expect(await listEvents()).toEqual(before);

      // A patch of one side is checked on the row it would make.
      const event = await createEvent({
        title: 'Call',
        start: '2026-04-01T09:00:00Z',
        end: '2026-04-01T10:00:00Z',
      });
      const id = event.body.calendarEvent.id as string;
      const patch = await me.call(
        'PATCH',
        `/api/calendar?endpoint=update-calendar-event&id=${id}`,
        {
          end: '2026-04-01T08:00:00Z',
        },
      );
      expect(patch.status).toBe(400);
      expect(patch.body.error.details).toContainEqual(
        expect.objectContaining({ path: 'body.end' }),
      );
      const kept = await me.call('GET', `/api/calendar?endpoint=get-calendar-event&id=${id}`);
      expect(kept.body.calendarEvent.end).toBe('2026-04-01T10:00:00.000Z');
    });

    it('links only a project of the same workspace, and checks membership from the token', async () => {
      const foreignClient = (await create(other, 'client', 'create-client', { name: 'Other' })).body
        .client.id;
      const foreignProject = (
        await create(other, 'project', 'create-project', {
          clientId: foreignClient,
          name: 'Theirs',
        })
      ).body.project.id;
      const linked = await createEvent({
        title: 'Sneaky',
        start: '2026-05-01',
        end: '2026-05-01',
        projectId: foreignProject,
      });
      expect(linked.status).toBe(422);
      expect(linked.body.error.details).toEqual([
        expect.objectContaining({ path: 'body.projectId' }),
      ]);
      const unknown = await createEvent({
        title: 'Nowhere',
        start: '2026-05-01',
        end: '2026-05-01',
        projectId: randomUUID(),
      });
      expect(unknown.status).toBe(422);

      // Another user writing into my workspace, or reading it, is refused.
      const intruder = await other.call('POST', '/api/calendar?endpoint=create-calendar-event', {
        id: randomUUID(),
        workspaceId: me.workspaceId,
        title: 'Intrusion',
        start: '2026-05-01',
        end: '2026-05-01',
      });
      expect(intruder.status).toBe(403);
      const peek = await other.call(
        'GET',
        `/api/calendar?endpoint=get-calendar-events&workspaceId=${me.workspaceId}`,
      );
      expect(peek.status).toBe(403);
      const mine = (await listEvents())[0] as Json;
      const edit = await other.call(
        'PATCH',
        `/api/calendar?endpoint=update-calendar-event&id=${mine.id as string}`,
        { title: 'Mine now' },
      );
      expect(edit.status).toBe(404);
      expect((await listEvents()).map((event) => event.title)).not.toContain('Intrusion');
    });

    it("puts a project's events in its activity, and an event of no project in none", async () => {
      const activity = async () =>
        (
          await me.call(
            'GET',
            `/api/project-activity?endpoint=get-project-activity&projectId=${projectId}&kind=calendar-event`,
          )
        ).body.activity as Json[];
      const before = (await activity()).length;
      const linked = await createEvent({
        title: 'Design review',
        start: '2026-05-04T13:00:00.000Z',
        end: '2026-05-04T14:00:00.000Z',
        projectId,
      });
      expect(linked.status).toBe(200);
      const loose = await createEvent({ title: 'Dentist', start: '2026-05-05', end: '2026-05-05' });
      expect(loose.status).toBe(200);
      const moved = await me.call(
        'PATCH',
        `/api/calendar?endpoint=update-calendar-event&id=${linked.body.calendarEvent.id}`,
        { start: '2026-05-06T13:00:00.000Z', end: '2026-05-06T14:00:00.000Z' },
      );
      expect(moved.status).toBe(200);
      const all = await activity();
      const entries = all.slice(0, all.length - before);
      expect(entries.map((entry) => [entry.op, entry.label])).toEqual([
        ['update', 'Design review'],
        ['create', 'Design review'],
      ]);
      expect(entries[0]).toMatchObject({
        kind: 'calendar-event',
        changes: { start: { from: '2026-05-04T13:00:00.000Z', to: '2026-05-06T13:00:00.000Z' } },
      });
    });

    it('keeps the events of a deleted project, unlinked, and says so in the change log', async () => {
      const project = (await create(me, 'project', 'create-project', { clientId, name: 'Short' }))
        .body.project.id as string;
      const event = await createEvent({
        title: 'Review',
        start: '2026-06-01',
        end: '2026-06-01',
        projectId: project,
      });
      const version = event.body.calendarEvent.version as number;
      const gone = await me.call('DELETE', `/api/project?endpoint=delete-project&id=${project}`);
      expect(gone.status).toBe(200);
      const after = await me.call(
        'GET',
        `/api/calendar?endpoint=get-calendar-event&id=${event.body.calendarEvent.id as string}`,
      );
      expect(after.body.calendarEvent.projectId).toBeNull();
      expect(after.body.calendarEvent.version).toBeGreaterThan(version);
    });

    it('takes events through sync push like any entity', async () => {
      const id = randomUUID();
      const pushed = await me.call('POST', '/api/sync?endpoint=push', {
        clientId: `device-${randomUUID()}`,
        mutations: [
          {
            mutationId: randomUUID(),
            clientSeq: 1,
            resource: 'calendar',
            operation: 'create-calendar-event',
            query: {},
            body: {
              id,
              workspaceId: me.workspaceId,
              title: 'Pushed',
              start: '2026-07-01',
              end: '2026-07-02',
            },
          },
          {
            mutationId: randomUUID(),
            clientSeq: 2,
            resource: 'calendar',
            operation: 'update-calendar-event',
            query: { id },
            body: { end: '2026-06-01' },
          },
        ],
      });
      expect(pushed.status).toBe(200);
      const results = pushed.body.results as Json[];
      expect(results[0]?.status).toBe(200);
      expect(results[1]?.status).toBe(400);
      const got = await me.call('GET', `/api/calendar?endpoint=get-calendar-event&id=${id}`);
      expect(got.body.calendarEvent.end).toBe('2026-07-02');
    });

    it('serves an ICS feed that parses back, with stable UIDs, dates and instants', async () => {
      const milestone = await create(me, 'milestone', 'create-milestone', {
        projectId,
        title: 'Design sign-off',
        position: orderKeyBetween(null, null),
        dueDate: '2026-03-20',
      });
      const myTask = await create(me, 'task', 'create-task', {
        projectId,
        columnId,
        title: 'Write copy',
        position: orderKeyBetween(null, null),
        dueDate: '2026-03-18',
        assigneeId: me.user.id,
      });
      await create(me, 'task', 'create-task', {
        projectId,
        columnId,
        title: 'Nobody’s task',
        position: orderKeyBetween(null, null),
        dueDate: '2026-03-19',
      });
      const none = await me.call('GET', '/api/calendar?endpoint=get-calendar-feed');
      expect(none.body).toEqual({ feed: null });
      const made = await me.call('POST', '/api/calendar?endpoint=create-calendar-feed');
      expect(made.status).toBe(200);
      let token = made.body.token as string;
      expect(made.body.url).toBe(`http://localhost:8080/api/calendar.ics?token=${token}`);
      // Only the hash is kept.
      const stored = await me.t.db.query<{ token_hash: unknown }>(
        'SELECT token_hash FROM calendar_feed WHERE user_id = $1',
        [me.user.id],
      );
      expect(JSON.stringify(stored.rows)).not.toContain(token);
      // Nor in an Idempotency-Key record: an answer with a secret is never stored for replay.
      const idempotencyKey = crypto.randomUUID();
      const keyed = await me.t.app.request('/api/calendar?endpoint=create-calendar-feed', {
        method: 'POST',
        headers: { authorization: `Bearer ${await me.token()}`, 'idempotency-key': idempotencyKey },
      });
      expect(keyed.status).toBe(200);
      const kept = await me.t.db.query('SELECT 1 FROM idempotency_key WHERE key = $1', [
        idempotencyKey,
      ]);
      expect(kept.rowCount).toBe(0);
      // That made a new URL: the feed below reads the newest one.
      token = ((await keyed.json()) as { token: string }).token;

      const first = await feed(token);
      expect(first.status).toBe(200);
      expect(first.type).toBe('text/calendar; charset=utf-8');
      const calendar = new ICAL.Component(ICAL.parse(first.text));
      const byUid = new Map(
        calendar
          .getAllSubcomponents('vevent')
          .map((component) => [String(component.getFirstPropertyValue('uid')), component]),
      );
      const milestoneId = milestone.body.milestone.id as string;
      const mUid = `milestone-${milestoneId}@localhost:8080`;
      const m = byUid.get(mUid);
      expect(m).toBeDefined();
      const mStart = m?.getFirstProperty('dtstart');
      expect(mStart?.type).toBe('date');
      expect(String(mStart?.getFirstValue())).toBe('2026-03-20');
      expect(String(m?.getFirstPropertyValue('dtend'))).toBe('2026-03-21');
      expect(Number(m?.getFirstPropertyValue('sequence'))).toBe(milestone.body.milestone.version);
      expect(m?.getFirstPropertyValue('last-modified')).toBeTruthy();
      expect(byUid.has(`task-${myTask.body.task.id as string}@localhost:8080`)).toBe(true);
      const summaries = [...byUid.values()].map((c) => String(c.getFirstPropertyValue('summary')));
      expect(summaries).not.toContain('Task due: Nobody’s task');

      const kickOff = [...byUid.values()].find(
        (c) => c.getFirstPropertyValue('summary') === 'Kick-off',
      );
      const start = kickOff?.getFirstPropertyValue('dtstart') as ICAL.Time;
      expect(start.zone?.tzid).toBe('UTC');
      expect(start.toJSDate().toISOString()).toBe('2026-03-02T09:00:00.000Z');
      const alarm = kickOff?.getFirstSubcomponent('valarm');
      expect(String(alarm?.getFirstPropertyValue('trigger'))).toBe('-PT15M');
      expect(kickOff?.getFirstPropertyValue('location')).toBe('Studio');

      // An edit keeps the UID and raises SEQUENCE.
      await me.call('PATCH', `/api/milestone?endpoint=update-milestone&id=${milestoneId}`, {
        dueDate: '2026-03-27',
      });
      const again = new ICAL.Component(ICAL.parse((await feed(token)).text));
      const edited = again
        .getAllSubcomponents('vevent')
        .find((c) => c.getFirstPropertyValue('uid') === mUid);
      expect(String(edited?.getFirstPropertyValue('dtstart'))).toBe('2026-03-27');
      expect(Number(edited?.getFirstPropertyValue('sequence'))).toBeGreaterThan(
        milestone.body.milestone.version as number,
      );
      const status = await me.call('GET', '/api/calendar?endpoint=get-calendar-feed');
      expect(status.body.feed.lastUsedAt).toEqual(expect.any(String));

      // Another user's feed holds none of my workspace.
      const theirs = await other.call('POST', '/api/calendar?endpoint=create-calendar-feed');
      const theirFeed = await feed(theirs.body.token as string);
      expect(theirFeed.text).not.toContain(milestoneId);

      // A new URL ends the old one; revoking ends it too; unknown and malformed tokens are 404s.
      const remade = await me.call('POST', '/api/calendar?endpoint=create-calendar-feed');
      const old = await feed(token);
      expect(old.status).toBe(404);
      expect(JSON.parse(old.text)).toMatchObject({ error: { code: 'NOT_FOUND' } });
      expect((await feed(remade.body.token as string)).status).toBe(200);
      const revoked = await me.call('DELETE', '/api/calendar?endpoint=revoke-calendar-feed');
      expect(revoked.body).toEqual({ revoked: true });
      expect((await feed(remade.body.token as string)).status).toBe(404);
      expect((await feed('not-a-token')).status).toBe(404);
      const missing = await me.t.app.request('/api/calendar.ics');
      expect(missing.status).toBe(404);
      expect(await me.call('GET', '/api/calendar?endpoint=get-calendar-feed')).toMatchObject({
        body: { feed: null },
      });
    });
  });
}
