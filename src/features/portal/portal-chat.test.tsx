import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { PortalChatMessage } from '#contract/endpoints/portal-chat.ts';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectAccessible } from '../projects/project-screen-test-utils.tsx';
import { PortalChat } from './portal-chat.tsx';
import { PortalChatCopy } from './portal-chat-messages.tsx';
import { readPortalChatOutbox } from './portal-outbox.ts';
import { readPortalSavedPart, writePortalSavedPart } from './portal-saved-parts.ts';
import { fakeBrowserOnline, memoryStorage } from './portal-test-api.ts';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const projectId = crypto.randomUUID();
// Ids the page makes for new messages (UUIDs, as the contract wants).
const newId = '0192f3a0-0000-4000-8000-0000000000a1';
const firstId = '0192f3a0-0000-4000-8000-0000000000b1';
const secondId = '0192f3a0-0000-4000-8000-0000000000b2';
const savedAt = Date.parse('2026-11-20T10:30:00.000Z');
let seq = 10;
function message(overrides: Partial<PortalChatMessage>): PortalChatMessage {
  seq += 1;
  return {
    id: crypto.randomUUID(),
    text: 'Hello',
    authorKind: 'member',
    authorName: 'Ada Lovelace',
    seq,
    createdAt: '2026-11-20T10:00:00.000Z',
    editedAt: null,
    ...overrides,
  };
}

function fakeApi(handlers: Record<string, (input: any) => unknown>) {
  const calls: { operation: string; input: any }[] = [];
  const callEndpoint = vi.fn((endpoint: { operation: string }, input: unknown) => {
    calls.push({ operation: endpoint.operation, input });
    const handler = handlers[endpoint.operation];
    return Promise.resolve().then(() => {
      if (!handler) throw new Error(`unexpected ${endpoint.operation}`);
      return handler(input);
    });
  });
  return { callEndpoint: callEndpoint as unknown as CallEndpoint, calls };
}

/** The server's answer to a message the client sent. */
const echo = ({ body }: { body: { id: string; text: string } }) => ({
  message: message({ id: body.id, text: body.text, authorKind: 'client', authorName: 'Acme' }),
});

const refusedOff = () => {
  throw Object.assign(new Error('refused'), {
    status: 403,
    body: { error: { message: 'Chat with the team is not turned on for this project.' } },
  });
};

function renderChat(
  callEndpoint: CallEndpoint,
  { offline = false, storage = memoryStorage(), ids = [newId] } = {},
) {
  const next = [...ids];
  const element = (isOffline: boolean) => (
    <PortalChat
      callEndpoint={callEndpoint}
      projectId={projectId}
      workspaceName="Studio North"
      offline={isOffline}
      storage={storage}
      now={() => savedAt}
      newId={() => next.shift() ?? crypto.randomUUID()}
    />
  );
  const view = render(element(offline));
  return { ...view, storage, setOffline: (value: boolean) => view.rerender(element(value)) };
}

describe('PortalChat', () => {
  it('shows nothing while the team has not turned chat on, and forgets a saved copy', async () => {
    const storage = memoryStorage();
    writePortalSavedPart(storage, projectId, 'chat', {
      savedAt,
      messages: [message({})],
      hasOlder: false,
    });
    const { callEndpoint, calls } = fakeApi({
      'get-chat-messages': () => ({ enabled: false, messages: [], hasOlder: false }),
    });
    const { container } = renderChat(callEndpoint, { storage });
    await waitFor(() => expect(calls).toHaveLength(1));
    await waitFor(() => expect(container.innerHTML).toBe(''));
    expect(readPortalSavedPart(storage, projectId, 'chat')).toBeNull();
  });

  it('reads the conversation, keeps its newest page on the device, pages back, and sends with Enter', async () => {
    const older = message({ text: 'Kick-off notes are up' });
    const first = message({ text: 'Draft is ready for review' });
    const deleted = message({ text: null, authorName: 'Grace' });
    const { callEndpoint, calls } = fakeApi({
      'get-chat-messages': ({ query }) =>
        query.before
          ? { enabled: true, messages: [older], hasOlder: false }
          : { enabled: true, messages: [first, deleted], hasOlder: true },
      'send-chat-message': echo,
    });
    const { storage } = renderChat(callEndpoint);
    const log = await screen.findByRole('list', { name: 'Messages with the team' });
    expect(within(log).getByText('Draft is ready for review')).toBeTruthy();
    expect(within(log).getByText('Ada Lovelace')).toBeTruthy();
    expect(within(log).getByText('Message deleted')).toBeTruthy();
    expect(readPortalSavedPart(storage, projectId, 'chat')).toEqual({
      savedAt,
      messages: [first, deleted],
      hasOlder: true,
    });
    await expectAccessible();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Show earlier messages' }));
    await waitFor(() =>
      expect(
        within(log)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual([
        expect.stringContaining('Kick-off notes are up'),
        expect.stringContaining('Draft is ready for review'),
        expect.stringContaining('Message deleted'),
      ]),
    );
    expect(calls.at(-1)?.input.query).toEqual({ projectId, before: String(first.seq) });
    expect(screen.queryByRole('button', { name: 'Show earlier messages' })).toBeNull();

    const field = screen.getByRole('textbox', { name: 'Message to Studio North' });
    await user.type(field, 'Looks great{Shift>}{Enter}{/Shift}One question');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(log).getByText(/One question/)).toBeTruthy());
    await waitFor(() => expect(within(log).queryByText('Sending…')).toBeNull());
    expect(calls.at(-1)).toEqual({
      operation: 'send-chat-message',
      input: {
        query: {},
        body: { id: newId, projectId, text: 'Looks great\nOne question' },
      },
    });
    expect(field).toHaveProperty('value', '');
    expect(document.activeElement).toBe(field);
    expect(within(log).getByText('You')).toBeTruthy();
    expect(readPortalChatOutbox(storage, projectId)).toEqual([]);
    expect(readPortalSavedPart(storage, projectId, 'chat')?.messages.at(-1)).toMatchObject({
      id: newId,
      text: 'Looks great\nOne question',
    });
  });

  it('offline, shows the messages saved on the device, marked as a copy with its time', async () => {
    fakeBrowserOnline(false);
    const storage = memoryStorage();
    writePortalSavedPart(storage, projectId, 'chat', {
      savedAt,
      messages: [message({ text: 'Invoice sent, see you Monday' })],
      hasOlder: true,
    });
    const { callEndpoint, calls } = fakeApi({});
    renderChat(callEndpoint, { offline: true, storage });
    const log = screen.getByRole('list', { name: 'Messages with the team' });
    expect(within(log).getByText('Invoice sent, see you Monday')).toBeTruthy();
    expect(
      screen.getByText(/You’re offline: the messages saved on this device, as of/),
    ).toBeTruthy();
    // Earlier pages need the server.
    expect(screen.queryByRole('button', { name: 'Show earlier messages' })).toBeNull();
    expect(calls).toEqual([]);
    await expectAccessible();
  });

  it('offline, a sent message waits on the device and is sent once when back online', async () => {
    const browser = fakeBrowserOnline(false);
    const storage = memoryStorage();
    writePortalSavedPart(storage, projectId, 'chat', {
      savedAt,
      messages: [message({})],
      hasOlder: false,
    });
    const { callEndpoint, calls } = fakeApi({
      'get-chat-messages': () => ({ enabled: true, messages: [], hasOlder: false }),
      'send-chat-message': echo,
    });
    const { setOffline } = renderChat(callEndpoint, { offline: true, storage });
    const user = userEvent.setup();
    const field = screen.getByRole('textbox', { name: 'Message to Studio North' });
    expect(screen.getByText(/what you send waits on this device/)).toBeTruthy();
    await user.type(field, 'Can we move the call?{Enter}');

    const log = screen.getByRole('list', { name: 'Messages with the team' });
    const waiting = within(log).getByText('Can we move the call?').closest('li')!;
    expect(within(waiting).getByText('Waiting for a connection')).toBeTruthy();
    expect(readPortalChatOutbox(storage, projectId)).toMatchObject([
      { body: { id: newId, projectId, text: 'Can we move the call?' }, refused: null },
    ]);
    expect(calls.filter((call) => call.operation === 'send-chat-message')).toEqual([]);

    act(() => browser.set(true));
    setOffline(false);
    await waitFor(() => expect(readPortalChatOutbox(storage, projectId)).toEqual([]));
    await waitFor(() => expect(within(log).queryByText('Waiting for a connection')).toBeNull());
    expect(within(log).getByText('Can we move the call?')).toBeTruthy();
    const sends = calls.filter((call) => call.operation === 'send-chat-message');
    expect(sends).toHaveLength(1);
    expect(sends[0]!.input.body).toEqual({
      id: newId,
      projectId,
      text: 'Can we move the call?',
    });
  });

  it('a refused message stays with the server’s words, Retry, Edit and Remove', async () => {
    const sends = [refusedOff, echo];
    const { callEndpoint, calls } = fakeApi({
      'get-chat-messages': () => ({ enabled: true, messages: [message({})], hasOlder: false }),
      'send-chat-message': (input) => sends.shift()!(input),
    });
    const { storage } = renderChat(callEndpoint, { ids: [firstId, secondId] });
    const field = await screen.findByRole('textbox', { name: 'Message to Studio North' });
    const user = userEvent.setup();
    await user.type(field, 'Are you there?{Enter}');
    const log = screen.getByRole('list', { name: 'Messages with the team' });
    expect(
      await within(log).findByText(
        'Not sent: Chat with the team is not turned on for this project.',
      ),
    ).toBeTruthy();
    expect(readPortalChatOutbox(storage, projectId)[0]?.refused?.status).toBe(403);
    await expectAccessible();

    // Retry sends the same message (the same id) again: turned back on, it goes.
    await user.click(within(log).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(within(log).queryByText(/Not sent/)).toBeNull());
    expect(within(log).getByText('Are you there?')).toBeTruthy();
    expect(
      calls.filter((call) => call.operation === 'send-chat-message').map((c) => c.input.body.id),
    ).toEqual([firstId, firstId]);

    // Edit puts a refused message back into the field; Remove takes it away.
    sends.push(refusedOff, refusedOff);
    await user.type(field, 'Second try{Enter}');
    await within(log).findByText(/Not sent/);
    await user.click(within(log).getByRole('button', { name: 'Edit' }));
    expect(field).toHaveProperty('value', 'Second try');
    expect(document.activeElement).toBe(field);
    expect(readPortalChatOutbox(storage, projectId)).toEqual([]);
    await user.keyboard('{Enter}');
    await within(log).findByText(/Not sent/);
    await user.click(within(log).getByRole('button', { name: 'Remove' }));
    expect(within(log).queryByText('Second try')).toBeNull();
    expect(document.activeElement).toBe(field);
    expect(readPortalChatOutbox(storage, projectId)).toEqual([]);
  });
});

describe('PortalChatCopy', () => {
  it('shows the saved messages and those waiting, read-only; nothing without a copy', () => {
    const storage = memoryStorage();
    const { container, rerender } = render(
      <PortalChatCopy projectId={projectId} storage={storage} />,
    );
    expect(container.innerHTML).toBe('');
    writePortalSavedPart(storage, projectId, 'chat', {
      savedAt,
      messages: [message({ text: 'Samples are in the post' })],
      hasOlder: false,
    });
    storage.setItem(
      `satchel-portal-chat-outbox:${projectId}`,
      JSON.stringify([
        {
          body: { id: crypto.randomUUID(), projectId, text: 'Thanks!' },
          queuedAt: savedAt,
          refused: null,
        },
      ]),
    );
    rerender(<PortalChatCopy projectId={projectId} storage={storage} />);
    expect(screen.getByRole('heading', { name: 'Messages' })).toBeTruthy();
    expect(screen.getByText('Samples are in the post')).toBeTruthy();
    expect(screen.getByText('Thanks!')).toBeTruthy();
    expect(screen.getByText('Waiting for a connection')).toBeTruthy();
    expect(screen.getByText(/the messages saved on this device, as of/)).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});
