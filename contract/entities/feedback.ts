import * as v from 'valibot';
import { text } from '../text.ts';
import { emailSchema, messageSchema } from './contact-message.ts';

export const feedbackCategories = ['bug', 'idea', 'praise', 'question', 'other'] as const;
export type FeedbackCategory = (typeof feedbackCategories)[number];

/**
 * Body of the public feedback form. Any user id in the body is dropped by the schema: a signed-in
 * user's id is taken from the bearer token only.
 */
export const submitFeedbackInputSchema = v.object({
  rating: v.pipe(
    v.number('Rating must be a number'),
    v.integer('Rating must be a whole number'),
    v.minValue(1, 'Rating must be between 1 and 5'),
    v.maxValue(5, 'Rating must be between 1 and 5'),
  ),
  category: v.picklist(feedbackCategories, 'Choose a category'),
  message: messageSchema,
  email: v.optional(emailSchema),
  website: v.optional(v.pipe(text(), v.maxLength(500))),
});
export type SubmitFeedbackInput = v.InferOutput<typeof submitFeedbackInputSchema>;
