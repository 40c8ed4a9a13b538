/**
 * What every feature mutation shares: its clock and id (injectable in tests), and the contract
 * check that turns a bad value into a LocalWriteError the form shows beside the field, before
 * anything is queued.
 */
import { v7 as uuidv7 } from 'uuid';
import * as v from 'valibot';
import { LocalWriteError, type LocalWriteContext } from '../db/local-write.ts';

/** The time and mutation id of one write. */
export function mutationBase(ctx: LocalWriteContext): { now: number; mutationId: string } {
  return { now: ctx.now?.() ?? Date.now(), mutationId: newId(ctx) };
}

/** A fresh entity or mutation id: uuid v7 unless the test gave a generator. */
export function newId(ctx: LocalWriteContext): string {
  return (ctx.newId ?? uuidv7)();
}

/** Contract issues as the form shows them: dotted field path and message. */
export function parseOrThrow<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const issues = result.issues.map((issue) => ({
    path: issue.path?.map((item) => String(item.key)).join('.') ?? '',
    message: issue.message,
  }));
  throw new LocalWriteError('invalid', issues[0]?.message ?? 'Invalid input.', { issues });
}
