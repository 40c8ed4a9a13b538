import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { chatReadId } from '#contract/entities/chat.ts';
import type { AppDatabase, LocalProject } from '../../db/app-database.ts';
import { countUnread, readChatWindow } from '../../data/chat.ts';
import { seedChatProject } from '../../data/chat-test-fakes.ts';
import {
  expectAccessible,
  createTestDatabase,
  renderWithSync,
  USER_ID,
  WS,
} from '../projects/project-screen-test-utils.tsx';
import ChatTab from './chat-tab.tsx';

afterEach(cleanup);

const BOB = '0190a000-0000-7000-8000-0000000000b0';

const seed = (db: AppDatabase) =>
  seedChatProject(db, { workspaceId: WS, userId: USER_ID, bobId: BOB });

/** A message as the server sent it (ordered, from Bob unless said otherwise). */
async function serverMessage(
  db: AppDatabase,
  project: LocalProject,
  seq: number,
  text: string,
  extra: Record<string, unknown> = {},
) {
  const at = new Date(Date.now() - (100 - seq) * 1000).toISOString();
  await db.chatMessages.put({
    id: `0190a000-0000-7000-8000-${String(seq).padStart(12, '0')}`,
    workspaceId: WS,
    projectId: project.id,
    text,
    mentions: [],
    replyToId: null,
    attachmentFileIds: [],
    deleted: false,
    seq,
    editedAt: null,
    authorKind: 'member',
    authorName: '',
    createdAt: at,
    createdBy: BOB,
    updatedAt: at,
    updatedBy: BOB,
    version: seq,
    _v: seq,
    _pending: 0,
    _deleted: false,
    _base: {},
    ...extra,
  } as never);
}

describe('ChatTab', { timeout: 30_000 }, () => {
  it('starts empty, sends with Enter (queued, shown as sending) and mentions a member', async () => {
    const db = await createTestDatabase();
    const project = await seed(db);
    const user = userEvent.setup();
    renderWithSync(<ChatTab project={project} />, db);
    expect(await screen.findByText('No messages yet')).toBeTruthy();
    await expectAccessible();

    const box = screen.getByRole('textbox', { name: 'Message to Website' });
    await user.type(box, 'Hi @Bo');
    const option = await screen.findByRole('option', { name: 'Bob Stone' });
    expect(option.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Enter}');
    expect((box as HTMLTextAreaElement).value).toBe('Hi @Bob Stone ');
    await user.type(box, 'see **this** https://example.com/a.');
    await user.keyboard('{Enter}');

    const log = screen.getByRole('log', { name: 'Messages about Website' });
    await within(log).findByText('this');
    expect(within(log).getByRole('link', { name: 'https://example.com/a' })).toBeTruthy();
    expect(within(log).getByText('Sending…')).toBeTruthy();
    expect((box as HTMLTextAreaElement).value).toBe('');
    const [entry] = (await db.outbox.toArray()).filter(
      (queued) => queued.entity === 'chat-message',
    );
    expect(entry).toMatchObject({ operation: 'create-chat-message' });
    expect(entry?.args).toMatchObject({
      text: 'Hi @Bob Stone see **this** https://example.com/a.',
      mentions: [BOB],
      projectId: project.id,
    });
    await expectAccessible();
  });

  it('orders by the server’s seq, marks what is new, and moves the read marker forward', async () => {
    const db = await createTestDatabase();
    const project = await seed(db);
    for (const seq of [3, 5, 9]) await serverMessage(db, project, seq, `Message ${seq}`);
    await db.chatReads.put({
      id: chatReadId(project.id, USER_ID),
      workspaceId: WS,
      projectId: project.id,
      lastReadSeq: 3,
      createdAt: '2026-01-01T00:00:00.000Z',
      createdBy: USER_ID,
      updatedAt: '2026-01-01T00:00:00.000Z',
      updatedBy: USER_ID,
      version: 4,
      _v: 4,
      _pending: 0,
      _deleted: false,
      _base: {},
    });
    expect(await countUnread(db, project.id, USER_ID)).toBe(2);
    renderWithSync(<ChatTab project={project} />, db);
    const log = await screen.findByRole('log');
    await within(log).findByText('Message 9');
    const items = within(log)
      .getAllByRole('listitem')
      .map((item) => item.textContent ?? '');
    const newLine = items.findIndex((text) => text === 'New');
    expect(newLine).toBeGreaterThan(items.findIndex((text) => text.includes('Message 3')));
    expect(newLine).toBeLessThan(items.findIndex((text) => text.includes('Message 5')));
    // At the bottom and visible: the marker moves up to the newest message, never back.
    await waitFor(async () => expect(await countUnread(db, project.id, USER_ID)).toBe(0), {
      timeout: 4000,
    });
    const marker = await db.chatReads.get(chatReadId(project.id, USER_ID));
    expect(marker?.lastReadSeq).toBe(9);
    expect((await db.outbox.toArray()).at(-1)).toMatchObject({ operation: 'update-chat-read' });
  });

  it('edits and deletes one’s own messages, reacts to others’, and refuses a message too long', async () => {
    const db = await createTestDatabase();
    const project = await seed(db);
    await serverMessage(db, project, 2, 'From Bob');
    await serverMessage(db, project, 4, 'Mine', { createdBy: USER_ID, updatedBy: USER_ID });
    const user = userEvent.setup();
    renderWithSync(<ChatTab project={project} />, db);
    const log = await screen.findByRole('log');
    await within(log).findByText('Mine');

    // Bob's message: no Edit, a reaction.
    await user.click(
      screen.getByRole('button', { name: 'Actions for the message from Bob Stone' }),
    );
    expect(screen.queryByRole('menuitem', { name: 'Edit' })).toBeNull();
    await user.click(screen.getByRole('menuitem', { name: 'React with 👍' }));
    const reaction = await screen.findByRole('button', { name: /^👍 1: Ada Lovelace/ });
    expect(reaction.getAttribute('aria-pressed')).toBe('true');

    await user.click(screen.getByRole('button', { name: 'Actions for the message from You' }));
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    const box = screen.getByRole('textbox', { name: 'Message to Website' });
    expect((box as HTMLTextAreaElement).value).toBe('Mine');
    await user.clear(box);
    await user.type(box, 'Mine, better{Enter}');
    await within(log).findByText('Mine, better');
    await waitFor(() => expect(document.activeElement?.id).toMatch(/^message-/));

    await user.click(screen.getByRole('button', { name: 'Actions for the message from You' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete…' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await within(log).findByText('Message deleted');
    const ops = (await db.outbox.toArray())
      .filter((entry) => entry.entity === 'chat-message' || entry.entity === 'chat-reaction')
      .map((entry) => [entry.operation, entry.args]);
    expect(ops).toEqual([
      ['create-chat-reaction', expect.objectContaining({ emoji: '👍' })],
      ['update-chat-message', { text: 'Mine, better' }],
      ['update-chat-message', { deleted: true }],
    ]);

    fireEvent.change(box, { target: { value: 'x'.repeat(10_001) } });
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'A message must be at most 10,000 characters',
    );
    expect(
      (await db.outbox.toArray()).filter((entry) => entry.entity === 'chat-message'),
    ).toHaveLength(2);
    await expectAccessible();
  });

  it('keeps a refused message in the chat with Retry and Edit', async () => {
    const db = await createTestDatabase();
    const project = await seed(db);
    await db.syncIssues.put({
      id: 'm1',
      mutationId: 'm1',
      workspaceId: WS,
      entity: 'chat-message',
      entityId: '0190a000-0000-7000-8000-0000000000f1',
      title: 'Create chat message',
      reason: 'validation',
      serverMessage: 'Only members of this workspace can be mentioned.',
      createdAt: Date.now(),
      attempts: 1,
      payload: {
        resource: 'chat-message',
        operation: 'create-chat-message',
        query: {},
        op: 'create',
        args: {
          id: '0190a000-0000-7000-8000-0000000000f1',
          workspaceId: WS,
          projectId: project.id,
          text: 'Hello @Eve',
          mentions: [],
          replyToId: null,
          attachmentFileIds: [],
        },
        label: 'Hello @Eve',
      },
      resolved: false,
    });
    const user = userEvent.setup();
    renderWithSync(<ChatTab project={project} />, db);
    expect(
      await screen.findByText('Not sent: Only members of this workspace can be mentioned.'),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const box = screen.getByRole('textbox', { name: 'Message to Website' });
    expect((box as HTMLTextAreaElement).value).toBe('Hello @Eve');
    await user.clear(box);
    await user.type(box, 'Hello everyone{Enter}');
    await waitFor(async () => expect(await db.syncIssues.count()).toBe(0));
    const { messages } = await readChatWindow(db, project.id, 50);
    expect(messages.map((message) => message.text)).toEqual(['Hello everyone']);
    await act(() => Promise.resolve());
  });
});
