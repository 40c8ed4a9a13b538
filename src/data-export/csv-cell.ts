/**
 * One CSV cell from a row's value. Spreadsheets run a cell that starts with = + - @ (and some with
 * a leading tab or carriage return) as a formula, so a client named `=HYPERLINK(...)` or
 * `=cmd|' /C calc'!A0` would run in whoever opens the export (CSV injection, OWASP). Such text
 * gets a leading single quote, which spreadsheets show as text and do not evaluate; the JSON of
 * the same export keeps the value exactly as stored.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

/** Text that a spreadsheet would evaluate, made inert with a leading single quote. */
export function escapeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * The cell's text: empty for null and undefined, lists and objects as JSON (a task's checklist,
 * a file's versions), numbers and booleans as written. Only text from people is escaped: a
 * number such as -5 is data, not a formula, and stays as it is.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return escapeFormula(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  // JSON starts with [ or {, which no spreadsheet evaluates; strings inside are not cells.
  return JSON.stringify(value);
}
