import type { CallEndpoint } from '#contract/define-endpoint.ts';
import type { PortalChatMessage } from '#contract/endpoints/portal-chat.ts';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectAccessible } from '../projects/project-screen-test-utils.tsx';
import { PortalChat } from './portal-chat.tsx';

afterEach(cleanup);

const projectId = crypto.randomUUID();
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

const renderChat = (callEndpoint: CallEndpoint, offline = false) =>
  render(
    <PortalChat
      callEndpoint={callEndpoint}
      projectId={projectId}
      workspaceName="Studio North"
      offline={offline}
      newId={() => 'new-id'}
    />,
  );

describe('PortalChat', () => {
  it('shows nothing while the team has not turned chat on', async () => {
    const { callEndpoint, calls } = fakeApi({
      'get-chat-messages': () => ({ enabled: false, messages: [], hasOlder: false }),
    });
    const { container } = renderChat(callEndpoint);
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(container.innerHTML).toBe('');
  });

  it('reads the conversation, pages back, and sends with Enter', async () => {
    const older = message({ text: 'Kick-off notes are up' });
    const first = message({ text: 'Draft is ready for review' });
    const deleted = message({ text: null, authorName: 'Grace' });
    const { callEndpoint, calls } = fakeApi({
      'get-chat-messages': ({ query }) =>
        query.before
          ? { enabled: true, messages: [older], hasOlder: false }
          : { enabled: true, messages: [first, deleted], hasOlder: true },
      'send-chat-message': ({ body }) => ({
        message: message({
          id: body.id,
          text: body.text,
          authorKind: 'client',
          authorName: 'Acme',
        }),
      }),
    });
    renderChat(callEndpoint);
    const log = await screen.findByRole('list', { name: 'Messages with the team' });
    expect(within(log).getByText('Draft is ready for review')).toBeTruthy();
    expect(within(log).getByText('Ada Lovelace')).toBeTruthy();
    expect(within(log).getByText('Message deleted')).toBeTruthy();
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
    expect(calls.at(-1)).toEqual({
      operation: 'send-chat-message',
      input: {
        query: {},
        body: { id: 'new-id', projectId, text: 'Looks great\nOne question' },
      },
    });
    expect(field).toHaveProperty('value', '');
    expect(document.activeElement).toBe(field);
    expect(within(log).getByText('You')).toBeTruthy();
  });

  it('keeps the text when a send fails, and is read-only offline', async () => {
    const { callEndpoint } = fakeApi({
      'get-chat-messages': () => ({ enabled: true, messages: [message({})], hasOlder: false }),
      'send-chat-message': () => {
        throw Object.assign(new Error('refused'), {
          status: 403,
          body: { error: { message: 'Chat with the team is not turned on for this project.' } },
        });
      },
    });
    const { rerender } = renderChat(callEndpoint);
    const field = await screen.findByRole('textbox', { name: 'Message to Studio North' });
    const user = userEvent.setup();
    await user.type(field, 'Are you there?');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/not turned on/);
    expect(field).toHaveProperty('value', 'Are you there?');

    rerender(
      <PortalChat
        callEndpoint={callEndpoint}
        projectId={projectId}
        workspaceName="Studio North"
        offline
      />,
    );
    expect(field).toHaveProperty('disabled', true);
    expect(screen.getByText(/You’re offline: messages need a connection/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send' })).toHaveProperty('disabled', true);
    // What was read stays on screen.
    expect(screen.getByText('Hello')).toBeTruthy();
  });
});
