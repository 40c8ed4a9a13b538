import * as v from 'valibot';
import { text } from '../text.ts';

/** Longest free-text message accepted by the public forms. */
export const MAX_MESSAGE_LENGTH = 5000;

const trimmed = (label: string, max: number) =>
  v.pipe(
    text(`${label} must be text`),
    v.trim(),
    v.nonEmpty(`${label} is required`),
    v.maxLength(max, `${label} must be at most ${max} characters`),
  );

export const emailSchema = v.pipe(
  text('Email must be text'),
  v.trim(),
  v.nonEmpty('Email is required'),
  v.maxLength(254, 'Email must be at most 254 characters'),
  v.email('Enter a valid email address'),
);

export const messageSchema = trimmed('Message', MAX_MESSAGE_LENGTH);

/**
 * Body of the public contact form. `website` is a honeypot: people never see it, bots fill it in;
 * a filled one is accepted silently and not stored.
 */
export const submitContactInputSchema = v.object({
  name: trimmed('Name', 200),
  email: emailSchema,
  subject: trimmed('Subject', 200),
  message: messageSchema,
  website: v.optional(v.pipe(text(), v.maxLength(500))),
});
export type SubmitContactInput = v.InferOutput<typeof submitContactInputSchema>;
