import * as v from 'valibot';

/** Spec 5: enrolment needs a friendly name. */
export const factorNameSchema = v.object({
  name: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('Give this method a name'),
    v.maxLength(60, 'Use at most 60 characters'),
  ),
});

/** Spec 5: a phone factor needs a phone number; the auth service wants E.164 (+ and digits). */
export const phoneFactorSchema = v.object({
  name: factorNameSchema.entries.name,
  phone: v.pipe(
    v.string(),
    v.transform((phone) => phone.replace(/[\s().-]/g, '')),
    v.nonEmpty('Enter your phone number'),
    v.regex(/^\+[1-9]\d{6,14}$/, 'Use the international format, for example +44 7700 900123'),
  ),
});
