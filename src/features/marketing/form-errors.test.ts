import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { submitContactInputSchema } from '#contract/entities/contact-message.ts';
import { OFFLINE_MESSAGE, readSubmitFailure, validateForm } from './form-errors.ts';

/** The shape the api-client rejects with. */
function apiError(status: number, error?: { code: string; message: string; details?: unknown }) {
  return Object.assign(new Error(error?.message ?? 'Something went wrong!'), {
    status,
    body: error ? { error: { ...error, requestId: 'r1' } } : null,
  });
}

describe('validateForm', () => {
  it('returns the parsed output of the contract schema', () => {
    const result = validateForm(submitContactInputSchema, {
      name: ' Ada ',
      email: 'ada@example.com',
      subject: 'Hi',
      message: 'Hello',
    });
    expect(result).toEqual({
      ok: true,
      output: { name: 'Ada', email: 'ada@example.com', subject: 'Hi', message: 'Hello' },
    });
  });

  it('keeps the first message of each field, in the schema’s words', () => {
    const result = validateForm(submitContactInputSchema, {
      name: '',
      email: 'nope',
      subject: 's'.repeat(201),
      message: 'x'.repeat(5001),
    });
    expect(result).toEqual({
      ok: false,
      errors: {
        name: 'Name is required',
        email: 'Enter a valid email address',
        subject: 'Subject must be at most 200 characters',
        message: 'Message must be at most 5000 characters',
      },
    });
  });

  it('ignores issues without a field', () => {
    expect(validateForm(v.string('Expected text'), 42)).toEqual({ ok: false, errors: {} });
  });
});

describe('readSubmitFailure', () => {
  it('shows the server’s human message for 429', () => {
    const failure = readSubmitFailure(
      apiError(429, {
        code: 'RATE_LIMITED',
        message: 'Too many attempts. Try again in 10 minutes.',
      }),
    );
    expect(failure).toEqual({
      message: 'Too many attempts. Try again in 10 minutes.',
      fieldErrors: {},
      isRateLimited: true,
    });
  });

  it('maps body.<field> details of VALIDATION_FAILED to fields', () => {
    const failure = readSubmitFailure(
      apiError(400, {
        code: 'VALIDATION_FAILED',
        message: 'Name is required',
        details: [
          { path: 'body.name', message: 'Name is required' },
          { path: 'body.name', message: 'A second message' },
          { path: 'body.email', message: 'Enter a valid email address' },
          'not a detail',
        ],
      }),
    );
    expect(failure.fieldErrors).toEqual({
      name: 'Name is required',
      email: 'Enter a valid email address',
    });
    expect(failure.message).toMatch(/next to them/);
  });

  it('says offline when no response arrived, and keeps a generic line for anything else', () => {
    expect(readSubmitFailure(apiError(0)).message).toBe(OFFLINE_MESSAGE);
    expect(readSubmitFailure(apiError(500)).message).toBe(
      'Something went wrong! Nothing was lost: try again in a moment.',
    );
    expect(readSubmitFailure(new TypeError('boom')).message).toMatch(/Something went wrong!/);
    expect(
      readSubmitFailure(apiError(413, { code: 'PAYLOAD_TOO_LARGE', message: 'Too large.' }))
        .message,
    ).toBe('Too large.');
  });
});
