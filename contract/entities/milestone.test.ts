import { describe, expect, it } from 'vitest';
import { signOffEndedBy, signOffStands, type Milestone } from './milestone.ts';

const approved: NonNullable<Milestone['signOff']> = {
  decision: 'approved',
  by: 'Claire Client',
  at: '2026-11-29T08:00:00.000Z',
  comment: null,
};
const changes = { ...approved, decision: 'changes_requested' as const, comment: 'Bigger logo' };
const signedOff = {
  status: 'approved' as const,
  signOff: approved,
  amount: 70_000,
  currency: 'USD',
};

describe('a client sign-off', () => {
  it('stands while the status is its decision', () => {
    expect(signOffStands(signedOff)).toBe(true);
    expect(signOffStands({ ...signedOff, status: 'in_progress' })).toBe(false);
    expect(signOffStands({ status: 'changes_requested', signOff: changes })).toBe(true);
    expect(signOffStands({ status: 'approved', signOff: null })).toBe(false);
  });

  it('survives edits of other fields and a patch that keeps the amount', () => {
    expect(signOffEndedBy(signedOff, {})).toBeNull();
    expect(signOffEndedBy(signedOff, { amount: 70_000, currency: 'USD' })).toBeNull();
    expect(signOffEndedBy(signedOff, { status: 'approved' })).toBeNull();
    expect(signOffEndedBy({ ...signedOff, signOff: null }, { amount: 1 })).toBeNull();
  });

  it('ends with a new amount or currency; an approved milestone awaits approval again', () => {
    expect(signOffEndedBy(signedOff, { amount: 170_000 })).toEqual({
      signOff: null,
      status: 'awaiting_approval',
    });
    expect(signOffEndedBy(signedOff, { currency: 'EUR' })).toEqual({
      signOff: null,
      status: 'awaiting_approval',
    });
    // A status the member sets is kept.
    expect(signOffEndedBy(signedOff, { amount: 170_000, status: 'in_progress' })).toEqual({
      signOff: null,
    });
    expect(
      signOffEndedBy(
        { ...signedOff, status: 'changes_requested', signOff: changes },
        { amount: 5 },
      ),
    ).toEqual({ signOff: null });
  });

  it('ends with a new round: back in progress, or awaiting approval after changes', () => {
    expect(signOffEndedBy(signedOff, { status: 'in_progress' })).toEqual({ signOff: null });
    expect(
      signOffEndedBy(
        { ...signedOff, status: 'changes_requested', signOff: changes },
        { status: 'awaiting_approval' },
      ),
    ).toEqual({ signOff: null });
  });
});
