// What a client says in the portal, over the app's HTTP surface: milestone sign-off (approve, or
// ask for changes with a comment), change requests (submit, sent twice by an offline queue,
// list) and the answer to a member's quote; and the member's side of the same rows (answering,
// the client's statuses refused, an accepted quote's terms settled, the client mailed). Every
// refusal of the issue: another project's ids, member tokens and portal cookies crossing over,
// foreign origins, a 2,000-character title. Each step is in the project's activity and notifies
// the members.
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonRequest } from '../fixtures/create-test-app.ts';
import { createRegisteredUserApp, type RegisteredUserApp } from '../fixtures/registered-user.ts';
import { postgresTestUrl } from '../fixtures/scratch-postgres.ts';
import { bearer } from '../fixtures/test-tokens.ts';

type Json = Record<string, any>;
interface Reply {
  status: number;
  body: Json | null;
}

const PASSWORD = 'blue lagoon 42';

const backends: [string, string | undefined][] = [
  ['PGlite', undefined],
  ...(postgresTestUrl ? [['PostgreSQL', postgresTestUrl] as [string, string]] : []),
];

describe.each(backends)('client portal answers on %s', (_name, postgresUrl) => {
  let me: RegisteredUserApp;
  let clientId: string;
  let projectId: string;
  let otherProjectId: string;
  let cookie: string;
  let otherCookie: string;
  const milestones: Record<string, string> = {};
  let nextIp = 1;
  const freshIp = () => `203.0.113.${nextIp++}`;

  const send = async (
    method: string,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply> => {
    const response = await me.t.app.request(
      url,
      body === undefined ? { method, headers } : jsonRequest(method, body, headers),
    );
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };

  const enter = async (pid: string): Promise<string> => {
    const response = await me.t.app.request(
      '/api/client-portal?endpoint=authenticate',
      jsonRequest('POST', { projectId: pid, password: PASSWORD }, { 'x-forwarded-for': freshIp() }),
    );
    expect(response.status, await response.clone().text()).toBe(200);
    return (response.headers.get('set-cookie') ?? '').split(';')[0] as string;
  };

  const portalPost = (operation: string, body: Json, headers: Record<string, string> = {}) =>
    send('POST', `/api/client-portal?endpoint=${operation}`, body, {
      cookie,
      'x-forwarded-for': '203.0.113.200',
      ...headers,
    });
  const portalGet = (query: string, as = cookie) =>
    send('GET', `/api/client-portal?${query}`, undefined, { cookie: as });

  const memberNotifications = async (type: string) => {
    const reply = await me.call(
      'GET',
      '/api/notifications?endpoint=get-notifications&page=1&limit=50',
    );
    return (reply.body.notifications as Json[]).filter((n) => n.type === type);
  };
  const activity = async (pid = projectId) => {
    const reply = await me.call(
      'GET',
      `/api/project-activity?endpoint=get-project-activity&projectId=${pid}`,
    );
    expect(reply.status).toBe(200);
    return reply.body.activity as Json[];
  };
  const mails = async () => {
    const dir = me.t.outboxDir;
    const names = await readdir(dir).catch(() => [] as string[]);
    const files = await Promise.all(
      names.sort().map((name) => readFile(path.join(dir, name), 'utf8')),
    );
    // Headers as written, the body (base64 in the .eml) decoded.
    return files.map((eml) => {
      const split = eml.indexOf('\r\n\r\n');
      const body = Buffer.from(eml.slice(split + 4).replace(/\s+/g, ''), 'base64');
      return `${eml.slice(0, split)}\n\n${body.toString('utf8')}`;
    });
  };
  const updateRequest = (id: string, body: Json) =>
    me.call('PATCH', `/api/change-request?endpoint=update-change-request&id=${id}`, body);

  const createProject = async (name: string, status = 'active') => {
    const reply = await me.call('POST', '/api/project?endpoint=create-project', {
      id: randomUUID(),
      workspaceId: me.workspaceId,
      clientId,
      name,
      status,
      currency: 'EUR',
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.project.id as string;
  };

  beforeAll(async () => {
    me = await createRegisteredUserApp({
      publicUrl: 'http://portal.test',
      trustProxyHops: 1,
      ...(postgresUrl ? { postgresUrl } : {}),
    });
    const client = await me.call('POST', '/api/client?endpoint=create-client', {
      id: randomUUID(),
      workspaceId: me.workspaceId,
      name: 'Acme Bakery',
      email: 'owner@acme.test',
    });
    clientId = client.body.client.id;
    projectId = await createProject('Shop front');
    otherProjectId = await createProject('Menu cards');
    for (const [key, title, position, pid] of [
      ['sketches', 'Sketches', 'a0', projectId],
      ['final', 'Final art', 'a1', projectId],
      ['hidden', 'Internal review', 'a2', projectId],
      ['other', 'Menu layout', 'a0', otherProjectId],
    ] as const) {
      const id = randomUUID();
      const reply = await me.call('POST', '/api/milestone?endpoint=create-milestone', {
        id,
        workspaceId: me.workspaceId,
        projectId: pid,
        title,
        position,
        status: 'awaiting_approval',
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      milestones[key] = id;
    }
    const hidden = await me.call(
      'PATCH',
      `/api/milestone?endpoint=update-milestone&id=${milestones.hidden}`,
      { visibleToClient: false },
    );
    expect(hidden.status, JSON.stringify(hidden.body)).toBe(200);
    for (const pid of [projectId, otherProjectId]) {
      const on = await me.call('PATCH', `/api/project?endpoint=update-portal-access&id=${pid}`, {
        enabled: true,
        password: PASSWORD,
      });
      expect(on.status, JSON.stringify(on.body)).toBe(200);
    }
    cookie = await enter(projectId);
    otherCookie = await enter(otherProjectId);
  });
  afterAll(async () => {
    await me?.t.cleanup();
  });

  it("turning the portal on and setting its password is a line in the project's activity", async () => {
    const lines = (await activity()).filter((line) => line.op === 'portal');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      kind: 'project',
      actorKind: 'member',
      actorName: 'Ada',
      changes: { enabled: { from: false, to: true }, password: { from: false, to: true } },
    });
    expect(JSON.stringify(lines)).not.toContain(PASSWORD);
  });

  it('hides a milestone a member hid, and refuses to sign it off', async () => {
    const reply = await portalGet(`endpoint=get-project-milestones&projectId=${projectId}`);
    expect(reply.status).toBe(200);
    expect((reply.body?.milestones as Json[]).map((m) => m.title)).toEqual([
      'Sketches',
      'Final art',
    ]);
    const signOff = await portalPost('sign-off-milestone', {
      projectId,
      milestoneId: milestones.hidden,
      decision: 'approved',
    });
    expect(signOff.status).toBe(403);
    expect(signOff.body?.error.message).toBe('This milestone is not shared in this portal.');
  });

  it('approves a milestone: status, the sign-off record with who, when and where, the audit row, activity and a notification', async () => {
    const reply = await portalPost('sign-off-milestone', {
      projectId,
      milestoneId: milestones.sketches,
      decision: 'approved',
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body?.milestone).toMatchObject({
      id: milestones.sketches,
      status: 'approved',
      signOff: { decision: 'approved', by: 'Acme Bakery', comment: null },
    });
    // The client's answer does not echo the address; the members' row keeps it.
    expect(reply.body?.milestone.signOff.ip).toBeUndefined();
    const row = await me.call(
      'GET',
      `/api/milestone?endpoint=get-milestone&id=${milestones.sketches}`,
    );
    expect(row.body.milestone.signOff).toMatchObject({ by: 'Acme Bakery', ip: '203.0.113.200' });
    const audit = await me.t.db.query<Json>(
      'SELECT decision, ip, client_name, portal_session_id FROM milestone_sign_off WHERE milestone_id = $1',
      [milestones.sketches],
    );
    expect(audit.rows).toEqual([
      {
        decision: 'approved',
        ip: '203.0.113.200',
        client_name: 'Acme Bakery',
        portal_session_id: expect.any(String),
      },
    ]);
    const line = (await activity()).find((entry) => entry.op === 'sign-off');
    expect(line).toMatchObject({
      kind: 'milestone',
      label: 'Sketches',
      actorKind: 'client',
      actorName: 'Acme Bakery',
      actorId: clientId,
      changes: {
        decision: { to: 'approved' },
        status: { from: 'awaiting_approval', to: 'approved' },
      },
    });
    const notes = await memberNotifications('milestone-signed-off');
    expect(notes.map((n) => n.title)).toContain('Acme Bakery approved “Sketches”');

    const again = await portalPost('sign-off-milestone', {
      projectId,
      milestoneId: milestones.sketches,
      decision: 'changes_requested',
      comment: 'Actually no',
    });
    expect(again.status).toBe(409);
    expect(again.body?.error.message).toBe('This milestone is already approved.');
  });

  it('asks for changes only with a comment', async () => {
    const bare = await portalPost('sign-off-milestone', {
      projectId,
      milestoneId: milestones.final,
      decision: 'changes_requested',
      comment: '   ',
    });
    expect(bare.status).toBe(400);
    expect(bare.body?.error.details[0]).toMatchObject({
      path: 'body.comment',
      message: 'Say what should change',
    });
    const reply = await portalPost('sign-off-milestone', {
      projectId,
      milestoneId: milestones.final,
      decision: 'changes_requested',
      comment: 'The logo should be larger.',
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body?.milestone).toMatchObject({
      status: 'changes_requested',
      signOff: { decision: 'changes_requested', comment: 'The logo should be larger.' },
    });
  });

  it("a member's new amount or new round ends the client's sign-off; other edits keep it", async () => {
    const update = (id: string, body: Json) =>
      me.call('PATCH', `/api/milestone?endpoint=update-milestone&id=${id}`, body);
    // Approved at no amount ("Sketches", above): a title edit keeps the record.
    const renamed = await update(milestones.sketches!, { title: 'Sketches, round 1' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.milestone).toMatchObject({
      status: 'approved',
      signOff: { decision: 'approved' },
    });
    // A price the client never approved: the record goes, the milestone awaits approval again.
    const repriced = await update(milestones.sketches!, { amount: 170_000 });
    expect(repriced.body.milestone).toMatchObject({
      status: 'awaiting_approval',
      amount: 170_000,
      signOff: null,
    });
    const line = (await activity()).find(
      (entry) => entry.op === 'update' && entry.changes?.amount !== undefined,
    );
    expect(line?.changes).toMatchObject({
      status: { from: 'approved', to: 'awaiting_approval' },
      signOff: { to: null },
    });
    // "Final art" asked for changes; put up for approval again, the old request goes.
    const again = await update(milestones.final!, { status: 'awaiting_approval' });
    expect(again.body.milestone).toMatchObject({ status: 'awaiting_approval', signOff: null });
    const listed = await portalGet(`endpoint=get-project-milestones&projectId=${projectId}`);
    expect((listed.body?.milestones as Json[]).map((m) => [m.title, m.status, m.signOff])).toEqual([
      ['Sketches, round 1', 'awaiting_approval', null],
      ['Final art', 'awaiting_approval', null],
    ]);
  });

  it("refuses another project's milestone, and a member token in place of the cookie", async () => {
    const foreign = await portalPost('sign-off-milestone', {
      projectId: otherProjectId,
      milestoneId: milestones.other,
      decision: 'approved',
    });
    expect(foreign.status).toBe(403);
    const mixed = await portalPost('sign-off-milestone', {
      projectId,
      milestoneId: milestones.other,
      decision: 'approved',
    });
    expect(mixed.status).toBe(403);
    const member = await send(
      'POST',
      '/api/client-portal?endpoint=sign-off-milestone',
      { projectId, milestoneId: milestones.final, decision: 'approved' },
      bearer(await me.token()),
    );
    expect(member.status).toBe(401);
    const other = await me.call(
      'GET',
      `/api/milestone?endpoint=get-milestone&id=${milestones.other}`,
    );
    expect(other.body.milestone.status).toBe('awaiting_approval');
  });

  it('submits a change request once even when sent twice, and the members see it as the client asked', async () => {
    const id = randomUUID();
    const body = {
      id,
      projectId,
      title: 'Add a gift card page',
      description: 'For the holidays.',
      desiredDate: '2026-12-15',
    };
    const first = await portalPost('create-change-request', body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body?.changeRequest).toMatchObject({
      id,
      title: 'Add a gift card page',
      status: 'submitted',
      currency: 'EUR',
      source: 'portal',
      desiredDate: '2026-12-15',
    });
    const second = await portalPost('create-change-request', body);
    expect(second.status).toBe(200);
    expect(second.body?.changeRequest.id).toBe(id);
    const listed = await portalGet(`endpoint=get-change-requests&projectId=${projectId}`);
    expect((listed.body?.changeRequests as Json[]).filter((cr) => cr.id === id)).toHaveLength(1);

    const member = await me.call(
      'GET',
      `/api/change-request?endpoint=get-change-requests&workspaceId=${me.workspaceId}`,
    );
    expect(member.status).toBe(200);
    expect(member.body.changeRequests).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id, source: 'portal', requestedBy: 'Acme Bakery', projectId }),
      ]),
    );
    const line = (await activity()).find(
      (entry) => entry.kind === 'change-request' && entry.entityId === id,
    );
    expect(line).toMatchObject({ op: 'create', actorKind: 'client', actorName: 'Acme Bakery' });
    const notes = await memberNotifications('change-request-submitted');
    expect(notes.map((n) => n.title)).toContain(
      'Acme Bakery asked for a change in Shop front: “Add a gift card page”',
    );
    // The notification opens this very request in the change request center.
    expect(notes.map((n) => n.link)).toContain(
      `/change-requests?projectId=${projectId}&request=${id}`,
    );
  });

  it('refuses a 2,000-character title, a foreign origin and another project, storing nothing', async () => {
    const long = randomUUID();
    const tooLong = await portalPost('create-change-request', {
      id: long,
      projectId,
      title: 'x'.repeat(2000),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body?.error.details[0]).toMatchObject({ path: 'body.title' });
    const csrf = randomUUID();
    const foreign = await portalPost(
      'create-change-request',
      { id: csrf, projectId, title: 'Forged' },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    const cross = randomUUID();
    const otherProject = await portalPost('create-change-request', {
      id: cross,
      projectId: otherProjectId,
      title: 'Not mine',
    });
    expect(otherProject.status).toBe(403);
    const stored = await me.t.db.query('SELECT id FROM change_request WHERE id = ANY($1::uuid[])', [
      [long, csrf, cross],
    ]);
    expect(stored.rows).toEqual([]);
    const listed = await portalGet(
      `endpoint=get-change-requests&projectId=${projectId}`,
      otherCookie,
    );
    expect(listed.status).toBe(403);
  });

  it('a member quotes (the client is mailed with the portal link), the client accepts once, and the terms are settled', async () => {
    const id = randomUUID();
    expect(
      (await portalPost('create-change-request', { id, projectId, title: 'Online ordering' }))
        .status,
    ).toBe(200);
    const early = await portalPost('decide-change-request', {
      id,
      projectId,
      decision: 'accepted',
    });
    expect(early.status).toBe(409);
    expect(early.body?.error.message).toBe(
      'This change request has no quote waiting for your answer.',
    );

    const sneaky = await updateRequest(id, { status: 'accepted' });
    expect(sneaky.status).toBe(400);
    expect(sneaky.body.error.details[0].path).toBe('body.status');

    const before = (await mails()).length;
    const quoted = await updateRequest(id, {
      status: 'quoted',
      costImpact: 125_000,
      scheduleImpactDays: 5,
      answer: 'Two more pages and a payment form.',
    });
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
    const sent = (await mails()).slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('To: owner@acme.test');
    expect(sent[0]).toContain('Quote for your change request: Online ordering');
    expect(sent[0]).toContain('EUR 1,250.00');
    expect(sent[0]).toContain('+5 days');
    expect(sent[0]).toContain(`http://portal.test/client/${clientId}/project/${projectId}`);

    const accepted = await portalPost('decide-change-request', {
      id,
      projectId,
      decision: 'accepted',
      comment: 'Go ahead.',
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body?.changeRequest).toMatchObject({
      status: 'accepted',
      costImpact: 125_000,
      clientDecision: { decision: 'accepted', comment: 'Go ahead.' },
    });
    const twice = await portalPost('decide-change-request', {
      id,
      projectId,
      decision: 'declined',
    });
    expect(twice.status).toBe(409);

    const row = await me.call('GET', `/api/change-request?endpoint=get-change-request&id=${id}`);
    expect(row.body.changeRequest.clientDecision).toMatchObject({
      decision: 'accepted',
      by: 'Acme Bakery',
      ip: '203.0.113.200',
    });
    const repriced = await updateRequest(id, { costImpact: 200_000 });
    expect(repriced.status).toBe(409);
    const reopened = await updateRequest(id, { status: 'submitted' });
    expect(reopened.status).toBe(409);
    const applied = await updateRequest(id, { appliedAt: '2026-11-24T10:00:00.000Z' });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);

    const decided = await memberNotifications('change-request-decided');
    expect(decided.map((n) => n.title)).toContain(
      'Acme Bakery accepted the quote for “Online ordering”',
    );
    const line = (await activity()).find(
      (entry) => entry.entityId === id && entry.actorKind === 'client' && entry.op === 'update',
    );
    expect(line?.changes.status).toEqual({ from: 'quoted', to: 'accepted' });
  });

  it('a declined quote can be quoted again, and the old answer is cleared', async () => {
    const id = randomUUID();
    await portalPost('create-change-request', { id, projectId, title: 'Second language' });
    await updateRequest(id, { status: 'quoted', costImpact: 90_000 });
    const declined = await portalPost('decide-change-request', {
      id,
      projectId,
      decision: 'declined',
      comment: 'Too much.',
    });
    expect(declined.body?.changeRequest).toMatchObject({
      status: 'quote_declined',
      clientDecision: { decision: 'declined', comment: 'Too much.' },
    });
    const requoted = await updateRequest(id, { status: 'quoted', costImpact: 60_000 });
    expect(requoted.status).toBe(200);
    expect(requoted.body.changeRequest).toMatchObject({ status: 'quoted', clientDecision: null });
    const accepted = await portalPost('decide-change-request', {
      id,
      projectId,
      decision: 'accepted',
    });
    expect(accepted.body?.changeRequest.status).toBe('accepted');
  });

  it('a member records a request; a member cannot create one as accepted', async () => {
    const refused = await me.call('POST', '/api/change-request?endpoint=create-change-request', {
      id: randomUUID(),
      workspaceId: me.workspaceId,
      projectId,
      title: 'Phone call: new colours',
      status: 'accepted',
    });
    expect(refused.status).toBe(400);
    const id = randomUUID();
    const made = await me.call('POST', '/api/change-request?endpoint=create-change-request', {
      id,
      workspaceId: me.workspaceId,
      projectId,
      title: 'Phone call: new colours',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.changeRequest).toMatchObject({ source: 'member', requestedBy: '' });
    // The client sees it too, marked as written down by the studio.
    const listed = await portalGet(`endpoint=get-change-requests&projectId=${projectId}`);
    expect((listed.body?.changeRequests as Json[]).find((cr) => cr.id === id)).toMatchObject({
      source: 'member',
    });
  });
});
