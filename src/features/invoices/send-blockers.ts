/**
 * Why Send is refused before the server is asked. The server sends what is stored, and a value
 * the device refused (a due date before the issue date) is on screen but not stored: asked
 * anyway, the server would judge the stored draft and answer about something the user does not
 * see ("Choose a due date" beside a chosen one). So what is on screen is checked here first.
 */
import type { PaymentTerms } from '#contract/entities/invoice.ts';

/** What is wrong, and the field to put it right in (focused). */
export interface SendBlocker {
  fieldId: string;
  message: string;
  /** Shown under that field when it says nothing yet. */
  fieldError?: string;
}

export const ISSUE_DATE_FIELD_ID = 'invoice-issue-date';
export const DUE_DATE_FIELD_ID = 'invoice-due-date';

/**
 * The dates as typed (YYYY-MM-DD, or empty). An empty issue date is the day the invoice is sent,
 * which the server reads in the workspace's zone: that case is left to it.
 */
export function datesBlocker(dates: {
  paymentTerms: PaymentTerms;
  issueDate: string;
  dueDate: string;
}): SendBlocker | null {
  const issue = dates.issueDate.trim();
  const due = dates.dueDate.trim();
  if (due === '' && dates.paymentTerms === 'custom') {
    return {
      fieldId: DUE_DATE_FIELD_ID,
      message: 'Choose a due date before sending, or payment terms that set one.',
      fieldError: 'Choose a due date',
    };
  }
  // ISO dates compare as text.
  if (issue !== '' && due !== '' && due < issue) {
    return {
      fieldId: DUE_DATE_FIELD_ID,
      message: 'The due date is before the issue date: change one of them before sending.',
      fieldError: 'The due date cannot be before the issue date',
    };
  }
  return null;
}
