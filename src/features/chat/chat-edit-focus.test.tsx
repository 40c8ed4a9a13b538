/**
 * The Chat tab's edit and reply in progress, and where focus goes: Edit and Reply from a
 * message's menu put focus in the composer; a message deleted while it is edited (or answered)
 * closes that edit (or reply); after a delete, focus goes on to the next message.
 */
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppDatabase, LocalProject } from '../../db/app-database.ts';
import { chatMessageRow, seedChatProject } from '../../data/chat-test-fakes.ts';
import {
  createTestDatabase,
  renderWithSync,
  USER_ID,
  WS,
} from '../projects/project-screen-test-utils.tsx';
import ChatTab from './chat-tab.tsx';

afterEach(cleanup);

const BOB = '0190a000-0000-7000-8000-0000000000b0';

/** Messages as the server sent them, in this order: `mine` says which are the user's. */
async function seedMessages(db: AppDatabase, mine: boolean[]) {
  const project = await seedChatProject(db, { workspaceId: WS, userId: USER_ID, bobId: BOB });
  const rows = mine.map((own, index) =>
    chatMessageRow(project.id, index + 1, { workspaceId: WS, createdBy: own ? USER_ID : BOB }),
  );
  await db.chatMessages.bulkPut(rows);
  return { project, ids: rows.map((row) => row.id) };
}

async function open(db: AppDatabase, project: LocalProject) {
  renderWithSync(<ChatTab project={project} />, db);
  const log = await screen.findByRole('log');
  await within(log).findByText('Message 1');
  return {
    log,
    box: screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message to Website' }),
  };
}

/** The ⋮ button of a message. */
const actionsOf = (id: string) =>
  within(document.getElementById(`message-${id}`)!).getByRole('button', {
    name: /^Actions for the message/,
  });

/** Long enough for react-aria to close the menu and give focus back to its button. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 300)));

const chatOps = async (db: AppDatabase) =>
  (await db.outbox.toArray())
    .filter((entry) => entry.entity === 'chat-message')
    .map((entry) => [entry.operation, entry.args]);

describe('ChatTab edit, reply and focus', { timeout: 30_000 }, () => {
  it('Edit and Reply put focus in the composer, by mouse and by keyboard', async () => {
    const db = await createTestDatabase();
    const { project, ids } = await seedMessages(db, [false, true]);
    const user = userEvent.setup();
    const { box } = await open(db, project);

    // Edit with the mouse: the text in the box, the caret after it.
    await user.click(actionsOf(ids[1]!));
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    await settle();
    expect(document.activeElement).toBe(box);
    expect(box.value).toBe('Message 2');
    expect([box.selectionStart, box.selectionEnd]).toEqual([9, 9]);
    await user.keyboard('!');
    expect(box.value).toBe('Message 2!');
    await user.keyboard('{Escape}');

    // Edit chosen again while the box already holds that text (nothing in it is rewritten):
    // the caret still goes after it.
    await user.click(actionsOf(ids[1]!));
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    await settle();
    box.setSelectionRange(0, 0);
    await user.click(actionsOf(ids[1]!));
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    await settle();
    expect(document.activeElement).toBe(box);
    expect([box.selectionStart, box.selectionEnd]).toEqual([9, 9]);
    await user.keyboard('{Escape}');

    // Reply with the keyboard.
    actionsOf(ids[0]!).focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('menu');
    expect(document.activeElement?.textContent).toBe('Reply');
    await user.keyboard('{Enter}');
    await settle();
    expect(screen.getByText('Replying to Bob Stone: Message 1')).toBeTruthy();
    expect(document.activeElement).toBe(box);
    await user.keyboard('Thanks');
    expect(box.value).toBe('Thanks');
  });

  it('closes the edit when the user deletes the message being edited', async () => {
    const db = await createTestDatabase();
    const { project, ids } = await seedMessages(db, [false, true]);
    const user = userEvent.setup();
    const { log } = await open(db, project);

    await user.click(actionsOf(ids[1]!));
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    expect(screen.getByText('Editing your message')).toBeTruthy();
    await user.click(actionsOf(ids[1]!));
    await user.click(screen.getByRole('menuitem', { name: 'Delete…' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await within(log).findByText('Message deleted');
    await waitFor(() => expect(screen.queryByText('Editing your message')).toBeNull());
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Message to Website' })).toHaveProperty('value', '');
    expect(await chatOps(db)).toEqual([['update-chat-message', { deleted: true }]]);
    // The user deleted it: no word that "the message you were editing was deleted".
    expect(screen.queryByText('The message you were editing was deleted.')).toBeNull();
  });

  it('closes an edit or a reply whose message is deleted or removed through sync', async () => {
    const db = await createTestDatabase();
    const { project, ids } = await seedMessages(db, [false, true]);
    const user = userEvent.setup();
    const { box } = await open(db, project);

    // Another device deletes the message being edited.
    await user.click(actionsOf(ids[1]!));
    await user.click(screen.getByRole('menuitem', { name: 'Edit' }));
    expect(screen.getByText('Editing your message')).toBeTruthy();
    await act(() => db.chatMessages.update(ids[1]!, { deleted: true, text: '' }));
    await waitFor(() => expect(screen.queryByText('Editing your message')).toBeNull());
    expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();
    expect(await screen.findByText('The message you were editing was deleted.')).toBeTruthy();

    // Bob's message answered, then removed outright: the reply closes, the draft stays.
    await user.click(actionsOf(ids[0]!));
    await user.click(screen.getByRole('menuitem', { name: 'Reply' }));
    await user.type(box, 'Sure');
    expect(screen.getByText('Replying to Bob Stone: Message 1')).toBeTruthy();
    await act(() => db.chatMessages.delete(ids[0]!));
    await waitFor(() => expect(screen.queryByText(/^Replying to/)).toBeNull());
    expect(await screen.findByText('The message you were replying to was deleted.')).toBeTruthy();
    expect(box.value).toBe('Sure');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(async () =>
      expect(await chatOps(db)).toEqual([
        ['create-chat-message', expect.objectContaining({ text: 'Sure', replyToId: null })],
      ]),
    );
  });

  it('after a delete, focus goes to the next message, the previous one, or the composer', async () => {
    const db = await createTestDatabase();
    const { project, ids } = await seedMessages(db, [true, true, true]);
    const user = userEvent.setup();
    const { box } = await open(db, project);

    const remove = async (id: string) => {
      await user.click(actionsOf(id));
      await user.click(screen.getByRole('menuitem', { name: 'Delete…' }));
      await user.click(await screen.findByRole('button', { name: 'Delete' }));
      await settle();
    };

    // The middle one: on to the next.
    await remove(ids[1]!);
    await waitFor(() => expect(document.activeElement).toBe(actionsOf(ids[2]!)));
    // The last one: back to the previous message still there (the deleted one has no actions).
    await remove(ids[2]!);
    await waitFor(() => expect(document.activeElement).toBe(actionsOf(ids[0]!)));
    // None left: the composer.
    await remove(ids[0]!);
    await waitFor(() => expect(document.activeElement).toBe(box));
  });
});
