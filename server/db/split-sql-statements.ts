/**
 * Splits a migration script into single statements, because `Database.query` runs exactly one
 * statement (extended protocol) on both adapters. Semicolons inside quotes, quoted identifiers,
 * dollar-quoted bodies ($$…$$, $tag$…$tag$) and comments do not split. Statements that are only
 * comments/whitespace are dropped. Not a SQL parser: it only has to agree with Postgres' lexer on
 * where a top-level `;` is.
 */
export function splitSqlStatements(script: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  let meaningful = false;

  while (i < script.length) {
    const char = script[i];
    const next = script[i + 1];
    if (char === '-' && next === '-') {
      const end = script.indexOf('\n', i);
      i = end === -1 ? script.length : end + 1;
    } else if (char === '/' && next === '*') {
      i = skipBlockComment(script, i);
    } else if (char === "'") {
      const escapes = isEscapeStringPrefix(script, i);
      i = skipQuoted(script, i, "'", escapes);
      meaningful = true;
    } else if (char === '"') {
      i = skipQuoted(script, i, '"', false);
      meaningful = true;
    } else if (char === '$' && dollarTagAt(script, i) !== null) {
      const tag = dollarTagAt(script, i) ?? '';
      const close = script.indexOf(tag, i + tag.length);
      if (close === -1) throw new Error('Unterminated dollar-quoted string in SQL script');
      i = close + tag.length;
      meaningful = true;
    } else if (char === ';') {
      if (meaningful) statements.push(script.slice(start, i).trim());
      i += 1;
      start = i;
      meaningful = false;
    } else {
      if (char !== undefined && !/\s/.test(char)) meaningful = true;
      i += 1;
    }
  }
  if (meaningful) statements.push(script.slice(start).trim());
  return statements;
}

function skipBlockComment(script: string, from: number): number {
  // Postgres block comments nest.
  let depth = 0;
  let i = from;
  while (i < script.length) {
    if (script.startsWith('/*', i)) {
      depth += 1;
      i += 2;
    } else if (script.startsWith('*/', i)) {
      depth -= 1;
      i += 2;
      if (depth === 0) return i;
    } else {
      i += 1;
    }
  }
  throw new Error('Unterminated block comment in SQL script');
}

function skipQuoted(
  script: string,
  from: number,
  quote: string,
  backslashEscapes: boolean,
): number {
  let i = from + 1;
  while (i < script.length) {
    const char = script[i];
    if (backslashEscapes && char === '\\') {
      i += 2;
    } else if (char === quote) {
      if (script[i + 1] === quote)
        i += 2; // doubled quote is an escaped quote
      else return i + 1;
    } else {
      i += 1;
    }
  }
  throw new Error(
    `Unterminated ${quote === "'" ? 'string literal' : 'quoted identifier'} in SQL script`,
  );
}

/** E'…' strings treat backslash as an escape; a letter E glued to an identifier does not count. */
function isEscapeStringPrefix(script: string, quoteIndex: number): boolean {
  const prefix = script[quoteIndex - 1];
  if (prefix !== 'e' && prefix !== 'E') return false;
  const before = script[quoteIndex - 2];
  return before === undefined || !/[A-Za-z0-9_$]/.test(before);
}

/** The dollar-quote opener at `index` (`$$` or `$tag$`), or null (e.g. a `$1` parameter). */
function dollarTagAt(script: string, index: number): string | null {
  const previous = script[index - 1];
  if (previous !== undefined && /[A-Za-z0-9_$]/.test(previous)) return null;
  const match = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(script.slice(index, index + 64));
  return match ? match[0] : null;
}
