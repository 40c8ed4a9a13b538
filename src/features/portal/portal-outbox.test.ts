import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PortalChangeRequest } from '#contract/endpoints/client-portal.ts';
import type { PortalChatMessage } from '#contract/endpoints/portal-chat.ts';
import {
  createPortalChatOutbox,
  createPortalOutbox,
  readPortalChatOutbox,
  readPortalOutbox,
  type ChangeRequestDraft,
  type ChatMessageDraft,
  type PortalChatOutboxOptions,
  type PortalOutboxOptions,
} from './portal-outbox.ts';
import { apiError, memoryStorage, portalChangeRequest } from './portal-test-api.ts';

const projectId = '0192f3a0-0000-7000-8000-0000000000aa';
const otherProjectId = '0192f3a0-0000-7000-8000-0000000000ee';
const idA = '0192f3a0-0000-4000-8000-00000000000a';
const idB = '0192f3a0-0000-4000-8000-00000000000b';

const draft = (id: string, title = `Request ${id.slice(-1)}`): ChangeRequestDraft => ({
  id,
  projectId,
  title,
});
const answer = (body: ChangeRequestDraft): PortalChangeRequest =>
  portalChangeRequest({ id: body.id, title: body.title });

/** A window stand-in whose `online` event the test fires. */
function fakeWindow() {
  const target = new EventTarget();
  const nav = { onLine: false };
  return {
    target,
    nav,
    goOnline: () => {
      nav.onLine = true;
      target.dispatchEvent(new Event('online'));
    },
  };
}

function setup(
  send: PortalOutboxOptions['send'],
  overrides: Partial<PortalOutboxOptions> = {},
  storage = memoryStorage(),
) {
  const win = fakeWindow();
  const sent: PortalChangeRequest[] = [];
  const onSessionEnded = vi.fn();
  const onChange = vi.fn();
  let clock = Date.parse('2026-03-12T09:00:00.000Z');
  const outbox = createPortalOutbox({
    storage,
    projectId,
    send,
    navigator: win.nav,
    target: win.target,
    now: () => (clock += 1000),
    onChange,
    onSent: (request) => sent.push(request),
    onSessionEnded,
    ...overrides,
  });
  return { outbox, win, sent, onSessionEnded, onChange, storage };
}

let stop: (() => void) | null = null;
afterEach(() => {
  stop?.();
  stop = null;
});

describe('createPortalOutbox', () => {
  it('offline, keeps a request on the device without trying to send it', async () => {
    const send = vi.fn((body: ChangeRequestDraft) => Promise.resolve(answer(body)));
    const { outbox, storage, onChange } = setup(send);
    stop = outbox.stop;
    const outcome = await outbox.submit(draft(idA));
    expect(outcome.state).toBe('queued');
    expect(send).not.toHaveBeenCalled();
    expect(onChange).toHaveBeenCalled();
    expect(readPortalOutbox(storage, projectId)).toEqual([
      { body: draft(idA), queuedAt: Date.parse('2026-03-12T09:00:01.000Z'), refused: null },
    ]);
    // Another project's page reads its own list only.
    expect(readPortalOutbox(storage, otherProjectId)).toEqual([]);
  });

  it('online, sends at once and keeps nothing', async () => {
    const send = vi.fn((body: ChangeRequestDraft) => Promise.resolve(answer(body)));
    const { outbox, win, storage } = setup(send);
    stop = outbox.stop;
    win.nav.onLine = true;
    const outcome = await outbox.submit(draft(idA));
    expect(outcome).toEqual({ state: 'sent', changeRequest: answer(draft(idA)) });
    expect(readPortalOutbox(storage, projectId)).toEqual([]);
  });

  it('a network failure on the way keeps the request; a 5xx or a 400 is the caller’s to show', async () => {
    const send = vi
      .fn<PortalOutboxOptions['send']>()
      .mockRejectedValueOnce(apiError(0, 'Failed to fetch'))
      .mockRejectedValueOnce(apiError(400, 'Title is required'));
    const { outbox, win, storage } = setup(send);
    stop = outbox.stop;
    win.nav.onLine = true;
    expect((await outbox.submit(draft(idA))).state).toBe('queued');
    await expect(outbox.submit(draft(idB))).rejects.toMatchObject({ status: 400 });
    expect(readPortalOutbox(storage, projectId).map((e) => e.body.id)).toEqual([idA]);
  });

  it('sends what waits, oldest first, when the browser is back online', async () => {
    const send = vi.fn((body: ChangeRequestDraft) => Promise.resolve(answer(body)));
    const { outbox, win, sent, storage } = setup(send);
    stop = outbox.stop;
    await outbox.submit(draft(idA));
    await outbox.submit(draft(idB));
    expect(send).not.toHaveBeenCalled();
    win.goOnline();
    await vi.waitFor(() => expect(sent.map((r) => r.id)).toEqual([idA, idB]));
    expect(send.mock.calls.map(([body]) => body)).toEqual([draft(idA), draft(idB)]);
    expect(readPortalOutbox(storage, projectId)).toEqual([]);
  });

  it('a page opened later sends what an earlier page kept (flush)', async () => {
    const storage = memoryStorage();
    const first = setup(() => Promise.reject(apiError(0, 'offline')), {}, storage);
    await first.outbox.submit(draft(idA));
    first.outbox.stop();

    const send = vi.fn((body: ChangeRequestDraft) => Promise.resolve(answer(body)));
    const second = setup(send, { navigator: { onLine: true } }, storage);
    stop = second.outbox.stop;
    await second.outbox.flush();
    expect(second.sent.map((r) => r.id)).toEqual([idA]);
    expect(readPortalOutbox(storage, projectId)).toEqual([]);
  });

  it('a 4xx marks the request refused with the server’s words and never sends it again', async () => {
    const send = vi
      .fn<PortalOutboxOptions['send']>()
      .mockRejectedValueOnce(apiError(422, 'This project is closed to new requests.'))
      .mockImplementation((body) => Promise.resolve(answer(body)));
    const { outbox, win, sent, storage } = setup(send);
    stop = outbox.stop;
    await outbox.submit(draft(idA));
    await outbox.submit(draft(idB));
    win.goOnline();
    // The refusal of the first does not hold the second back.
    await vi.waitFor(() => expect(sent.map((r) => r.id)).toEqual([idB]));
    expect(readPortalOutbox(storage, projectId)).toEqual([
      expect.objectContaining({
        body: draft(idA),
        refused: { status: 422, message: 'This project is closed to new requests.' },
      }),
    ]);
    await outbox.flush();
    win.goOnline();
    await outbox.flush();
    expect(send).toHaveBeenCalledTimes(2);

    outbox.remove(idA);
    expect(readPortalOutbox(storage, projectId)).toEqual([]);
  });

  it('a request with files kept on the device: they go up (prepare) just before it, it names them, and they are released after', async () => {
    const kept = [
      {
        key: '0192f3a0-0000-4000-8000-0000000000f1',
        name: 'wall.jpg',
        type: 'image/jpeg',
        size: 4,
      },
    ];
    const send = vi.fn((body: ChangeRequestDraft) => Promise.resolve(answer(body)));
    const prepare = vi.fn((entry: { body: ChangeRequestDraft }) =>
      Promise.resolve({
        ...entry.body,
        attachmentFileIds: ['0192f3a0-0000-7000-8000-0000000000f9'],
      }),
    );
    const release = vi.fn();
    const { outbox, win, sent, storage } = setup(send, { prepare, release });
    stop = outbox.stop;
    outbox.queue(draft(idA), kept);
    await outbox.submit(draft(idB));
    expect(readPortalOutbox(storage, projectId).map((e) => e.files)).toEqual([kept, undefined]);
    win.goOnline();
    await vi.waitFor(() => expect(sent.map((r) => r.id)).toEqual([idA, idB]));
    // Only the entry with files is prepared; the other goes as it was typed.
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(send.mock.calls.map(([body]) => body)).toEqual([
      { ...draft(idA), attachmentFileIds: ['0192f3a0-0000-7000-8000-0000000000f9'] },
      draft(idB),
    ]);
    expect(release).toHaveBeenCalledTimes(1);
    expect(release.mock.calls[0]?.[0]).toMatchObject({ body: draft(idA), files: kept });
    expect(readPortalOutbox(storage, projectId)).toEqual([]);
  });

  it('kept files: an upload cut off leaves the request waiting; one refused marks it refused with its words; removing it releases them', async () => {
    const kept = [
      { key: '0192f3a0-0000-4000-8000-0000000000f2', name: 'plan.pdf', type: '', size: 9 },
    ];
    const send = vi.fn((body: ChangeRequestDraft) => Promise.resolve(answer(body)));
    const prepare = vi
      .fn<NonNullable<PortalOutboxOptions['prepare']>>()
      .mockRejectedValueOnce(Object.assign(new Error('The connection was lost.'), { status: 0 }))
      .mockRejectedValueOnce(
        Object.assign(new Error('This file is larger than the 100 MiB a single upload may be.'), {
          status: 413,
        }),
      );
    const release = vi.fn();
    const { outbox, win, storage } = setup(send, { prepare, release });
    stop = outbox.stop;
    outbox.queue(draft(idA), kept);
    win.goOnline();
    await vi.waitFor(() => expect(prepare).toHaveBeenCalledTimes(1));
    await outbox.flush();
    expect(readPortalOutbox(storage, projectId)[0]?.refused).toBeNull();
    win.goOnline();
    await vi.waitFor(() =>
      expect(readPortalOutbox(storage, projectId)[0]?.refused).toEqual({
        status: 413,
        message: 'This file is larger than the 100 MiB a single upload may be.',
      }),
    );
    expect(send).not.toHaveBeenCalled();
    expect(release).not.toHaveBeenCalled();
    outbox.remove(idA);
    expect(release).toHaveBeenCalledTimes(1);
    expect(readPortalOutbox(storage, projectId)).toEqual([]);
  });

  it('a 5xx or a rate limit leaves the request waiting for the next chance', async () => {
    const send = vi
      .fn<PortalOutboxOptions['send']>()
      .mockRejectedValueOnce(apiError(503, 'Unavailable'))
      .mockRejectedValueOnce(apiError(429, 'Too many requests'))
      .mockImplementation((body) => Promise.resolve(answer(body)));
    const { outbox, win, sent, storage } = setup(send);
    stop = outbox.stop;
    await outbox.submit(draft(idA));
    win.nav.onLine = true;
    await outbox.flush();
    await outbox.flush();
    expect(readPortalOutbox(storage, projectId)[0]?.refused).toBeNull();
    await outbox.flush();
    expect(sent.map((r) => r.id)).toEqual([idA]);
  });

  it('a 401 keeps the request for after the password gate and says the session ended', async () => {
    const send = vi.fn<PortalOutboxOptions['send']>(() =>
      Promise.reject(apiError(401, 'Your portal session has ended.')),
    );
    const { outbox, win, onSessionEnded, storage } = setup(send);
    stop = outbox.stop;
    await outbox.submit(draft(idA));
    win.goOnline();
    await vi.waitFor(() => expect(onSessionEnded).toHaveBeenCalledTimes(1));
    expect(readPortalOutbox(storage, projectId)).toEqual([
      expect.objectContaining({ body: draft(idA), refused: null }),
    ]);
  });

  it('runs one flush at a time, so two `online` events do not send a request twice', async () => {
    let release: () => void = () => undefined;
    const send = vi.fn(
      (body: ChangeRequestDraft) =>
        new Promise<PortalChangeRequest>((resolve) => {
          release = () => resolve(answer(body));
        }),
    );
    const { outbox, win, sent } = setup(send);
    stop = outbox.stop;
    await outbox.submit(draft(idA));
    win.goOnline();
    win.goOnline();
    void outbox.flush();
    release();
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('stops listening for `online` once stopped', async () => {
    const send = vi.fn((body: ChangeRequestDraft) => Promise.resolve(answer(body)));
    const { outbox, win } = setup(send);
    await outbox.submit(draft(idA));
    outbox.stop();
    win.goOnline();
    await Promise.resolve();
    expect(send).not.toHaveBeenCalled();
  });

  it('drops an unreadable list instead of showing it', () => {
    const storage = memoryStorage();
    storage.setItem(`satchel-portal-outbox:${projectId}`, '{not json');
    expect(readPortalOutbox(storage, projectId)).toEqual([]);
    storage.setItem(
      `satchel-portal-outbox:${projectId}`,
      JSON.stringify([
        { body: { id: 'nope', projectId, title: 'x' }, queuedAt: 1, refused: null },
        { body: draft(idB), queuedAt: 2, refused: null },
      ]),
    );
    expect(readPortalOutbox(storage, projectId).map((e) => e.body.id)).toEqual([idB]);
  });
});

const chatDraft = (id: string, text = `Message ${id.slice(-1)}`): ChatMessageDraft => ({
  id,
  projectId,
  text,
});
const chatAnswer = (body: ChatMessageDraft): PortalChatMessage => ({
  id: body.id,
  text: body.text,
  authorKind: 'client',
  authorName: 'Acme',
  seq: 1,
  createdAt: '2026-03-12T09:00:00.000Z',
  editedAt: null,
});

function setupChat(
  send: PortalChatOutboxOptions['send'],
  storage = memoryStorage(),
  win = fakeWindow(),
) {
  const sent: PortalChatMessage[] = [];
  const onSessionEnded = vi.fn();
  const outbox = createPortalChatOutbox({
    storage,
    projectId,
    send,
    navigator: win.nav,
    target: win.target,
    now: () => Date.parse('2026-03-12T09:00:00.000Z'),
    onChange: () => undefined,
    onSent: (message) => sent.push(message),
    onSessionEnded,
  });
  return { outbox, win, sent, onSessionEnded, storage };
}

describe('createPortalChatOutbox', () => {
  it('keeps a message on the device, in a list of its own, and sends it once back online', async () => {
    const send = vi.fn((body: ChatMessageDraft) => Promise.resolve(chatAnswer(body)));
    const { outbox, win, sent, storage } = setupChat(send);
    stop = outbox.stop;
    outbox.queue(chatDraft(idA));
    await outbox.flush();
    expect(send).not.toHaveBeenCalled();
    expect(readPortalChatOutbox(storage, projectId)).toEqual([
      { body: chatDraft(idA), queuedAt: Date.parse('2026-03-12T09:00:00.000Z'), refused: null },
    ]);
    // Not a change request: the other list is untouched.
    expect(readPortalOutbox(storage, projectId)).toEqual([]);

    win.goOnline();
    await vi.waitFor(() => expect(sent.map((m) => m.id)).toEqual([idA]));
    expect(send).toHaveBeenCalledTimes(1);
    expect(readPortalChatOutbox(storage, projectId)).toEqual([]);
  });

  it('sends a message queued while a flush is under way in the same run', async () => {
    const releases: (() => void)[] = [];
    const send = vi.fn(
      (body: ChatMessageDraft) =>
        new Promise<PortalChatMessage>((resolve) => {
          releases.push(() => resolve(chatAnswer(body)));
        }),
    );
    const win = fakeWindow();
    win.nav.onLine = true;
    const { outbox, sent } = setupChat(send, memoryStorage(), win);
    stop = outbox.stop;
    outbox.queue(chatDraft(idA));
    const run = outbox.flush();
    outbox.queue(chatDraft(idB));
    void outbox.flush();
    await vi.waitFor(() => expect(releases).toHaveLength(1));
    releases[0]!();
    await vi.waitFor(() => expect(releases).toHaveLength(2));
    releases[1]!();
    await run;
    expect(sent.map((m) => m.id)).toEqual([idA, idB]);
  });

  it('two outboxes of one list in a page do not send the same message side by side', async () => {
    let release: () => void = () => undefined;
    const send = vi.fn(
      (body: ChatMessageDraft) =>
        new Promise<PortalChatMessage>((resolve) => {
          release = () => resolve(chatAnswer(body));
        }),
    );
    const storage = memoryStorage();
    const win = fakeWindow();
    win.nav.onLine = true;
    const first = setupChat(send, storage, win);
    first.outbox.queue(chatDraft(idA));
    const running = first.outbox.flush();
    // The screen rebuilt its outbox while the send was on its way.
    first.outbox.stop();
    const second = setupChat(send, storage, win);
    stop = second.outbox.stop;
    await second.outbox.flush();
    release();
    await running;
    expect(send).toHaveBeenCalledTimes(1);
    expect(readPortalChatOutbox(storage, projectId)).toEqual([]);
  });

  it('a 403 (chat turned off) is refused with the server’s words; Retry sends it again', async () => {
    const send = vi
      .fn<(body: ChatMessageDraft) => Promise<PortalChatMessage>>()
      .mockRejectedValueOnce(apiError(403, 'Chat with the team is not turned on for this project.'))
      .mockImplementation((body) => Promise.resolve(chatAnswer(body)));
    const win = fakeWindow();
    win.nav.onLine = true;
    const { outbox, sent, onSessionEnded, storage } = setupChat(send, memoryStorage(), win);
    stop = outbox.stop;
    outbox.queue(chatDraft(idA));
    await outbox.flush();
    expect(onSessionEnded).not.toHaveBeenCalled();
    expect(readPortalChatOutbox(storage, projectId)[0]?.refused).toEqual({
      status: 403,
      message: 'Chat with the team is not turned on for this project.',
    });
    // Refused stays refused: a flush does not send it again.
    await outbox.flush();
    expect(send).toHaveBeenCalledTimes(1);

    await outbox.retry(idA);
    expect(send).toHaveBeenCalledTimes(2);
    expect(send.mock.calls[1]![0]).toEqual(chatDraft(idA));
    expect(sent.map((m) => m.id)).toEqual([idA]);
    expect(readPortalChatOutbox(storage, projectId)).toEqual([]);
  });

  it('a 401 keeps the message waiting and says the session ended', async () => {
    const send = vi.fn(() => Promise.reject(apiError(401, 'Sign in again')));
    const win = fakeWindow();
    win.nav.onLine = true;
    const { outbox, onSessionEnded, storage } = setupChat(send, memoryStorage(), win);
    stop = outbox.stop;
    outbox.queue(chatDraft(idA));
    await outbox.flush();
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
    expect(readPortalChatOutbox(storage, projectId)).toMatchObject([
      { body: chatDraft(idA), refused: null },
    ]);
  });
});
