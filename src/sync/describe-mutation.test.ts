import { describe, expect, it } from 'vitest';
import { describeMutation, valueWords } from './describe-mutation.ts';
import { describeSyncStatus } from './sync-status.ts';

describe('mutation titles', () => {
  const patch = (args: Record<string, unknown>, entity: 'client' | 'project' = 'client') =>
    describeMutation({ entity, op: 'patch', args, label: 'Acme' });

  it('says what the change was, with the name it had', () => {
    expect(patch({ name: 'Acme Ltd' })).toBe("Rename client 'Acme' to 'Acme Ltd'");
    expect(patch({ archived: true })).toBe("Archive client 'Acme'");
    expect(patch({ archived: false })).toBe("Restore client 'Acme'");
    expect(patch({ status: 'on_hold' }, 'project')).toBe("Move project 'Acme' to On hold");
    expect(patch({ dueDate: '2026-03-31' }, 'project')).toBe(
      "Change the due date of project 'Acme' to '2026-03-31'",
    );
    expect(patch({ phone: null })).toBe("Clear the phone of client 'Acme'");
    expect(patch({ name: 'X', email: 'x@y.z' })).toBe("Edit client 'Acme' (name, email)");
    expect(
      describeMutation({ entity: 'client', op: 'create', args: { name: 'New' }, label: 'New' }),
    ).toBe("Create client 'New'");
    expect(describeMutation({ entity: 'project', op: 'delete', args: {}, label: 'Site' })).toBe(
      "Delete project 'Site'",
    );
    expect(patch({ notesSummary: 'x'.repeat(100) })).toBe(
      `Change the notes of client 'Acme' to '${'x'.repeat(39)}…'`,
    );
  });
});

describe('header status', () => {
  it('puts what needs the user first, then offline, waiting, saved', () => {
    const text = (state: Parameters<typeof describeSyncStatus>[0]) =>
      describeSyncStatus(state).text;
    expect(text({ state: 'idle', waiting: 0, failed: 0 })).toBe('All changes saved');
    expect(text({ state: 'syncing', waiting: 3, failed: 0 })).toBe('3 changes waiting');
    expect(text({ state: 'offline', waiting: 3, failed: 0 })).toBe(
      'Offline — changes are kept on this device',
    );
    expect(text({ state: 'offline', waiting: 1, failed: 2 })).toBe("2 changes couldn't be saved");
    expect(text({ state: 'needs_auth', waiting: 1, failed: 0 })).toBe('Sign in to sync 1 change');
  });
});

describe('valueWords', () => {
  it('counts a list of records instead of printing [object Object]', () => {
    expect(
      describeMutation({
        entity: 'invoice',
        op: 'patch',
        args: { lines: [{ id: 'a', description: 'Design' }] },
        label: 'Invoice',
      }),
    ).toBe("Change the lines of invoice 'Invoice' to '1 item'");
    expect(valueWords([{ a: 1 }, { b: 2 }])).toBe('2 items');
    expect(valueWords(['design', 'urgent'])).toBe('design, urgent');
    expect(valueWords([])).toBe('empty');
    expect(valueWords(null)).toBe('empty');
    expect(valueWords(42)).toBe('42');
    expect(valueWords({ a: 1 })).toBe('a new value');
  });
});
