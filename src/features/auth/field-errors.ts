import * as v from 'valibot';

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

export type Validation<K extends string, T> =
  { success: true; output: T; errors: FieldErrors<K> } | { success: false; errors: FieldErrors<K> };

/**
 * Runs a valibot schema over form values and keeps the first message per top-level field, for
 * showing next to the field. Form-wide issues (no path) go under `form`.
 */
export function validateFields<K extends string, S extends v.GenericSchema>(
  schema: S,
  values: unknown,
): Validation<K | 'form', v.InferOutput<S>> {
  const result = v.safeParse(schema, values);
  if (result.success) return { success: true, output: result.output, errors: {} };
  const errors: FieldErrors<K | 'form'> = {};
  for (const issue of result.issues) {
    const key = (issue.path?.[0]?.key as K | undefined) ?? 'form';
    errors[key] ??= issue.message;
  }
  return { success: false, errors };
}

/** Moves focus to the first invalid field of a form, after React has rendered the errors. */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  requestAnimationFrame(() => {
    form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  });
}
