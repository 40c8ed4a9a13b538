/** Field schemas shared by several entity declarations. */
import * as v from 'valibot';
import { groupDigits } from '../group-digits.ts';
import { text } from '../text.ts';

/** A required one-line name ("Name", "Title"): trimmed, not empty, at most `max` characters. */
export const requiredLine = (label: string, max: number) =>
  v.pipe(
    text(`${label} must be text`),
    v.trim(),
    v.nonEmpty(`${label} is required`),
    v.maxLength(max, `${label} must be at most ${max} characters`),
  );

export const titleSchema = requiredLine('Title', 200);

export const longTextSchema = (label: string, max = 20_000) =>
  v.nullable(
    v.pipe(
      text(`${label} must be text`),
      v.maxLength(max, `${label} must be at most ${groupDigits(max)} characters`),
    ),
  );

/** Money in minor units (cents): an integer, never a float, up to 10^12. */
export const minorUnitsSchema = v.nullable(
  v.pipe(
    v.number('Enter an amount in minor units (cents)'),
    v.integer('Amounts are whole minor units (cents)'),
    v.minValue(0, 'An amount cannot be negative'),
    v.maxValue(1_000_000_000_000, 'That amount is too large'),
  ),
);
