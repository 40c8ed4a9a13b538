/** The migration script splitter must cut only at top-level semicolons, as Postgres' lexer does. */
import { describe, expect, it } from 'vitest';
import { splitSqlStatements } from './split-sql-statements.ts';

describe('splitSqlStatements', () => {
  it('splits at top-level semicolons and drops empty or comment-only pieces', () => {
    expect(
      splitSqlStatements('CREATE TABLE a (id int);\n\n-- note; not a statement\n;SELECT 1'),
    ).toEqual(['CREATE TABLE a (id int)', 'SELECT 1']);
    expect(splitSqlStatements('  ;; -- only a comment\n /* and; this */ ')).toEqual([]);
  });

  it('keeps semicolons inside literals, identifiers, comments and dollar quotes', () => {
    const script = [
      "INSERT INTO t VALUES ('a;b', 'it''s; fine', E'back\\\\slash\\'; still')",
      'CREATE TABLE "odd;name" (id int)',
      '/* outer /* nested; */ still comment; */ SELECT 2',
      'CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql',
      'DO $body$ BEGIN PERFORM 1; END $body$',
      'SELECT $1::int',
    ];
    expect(splitSqlStatements(`${script.join(';\n')};`)).toEqual(script);
  });

  it('rejects unterminated quotes instead of guessing', () => {
    expect(() => splitSqlStatements("SELECT 'open")).toThrow(/Unterminated string literal/);
    expect(() => splitSqlStatements('SELECT $$ open')).toThrow(/Unterminated dollar-quoted/);
    expect(() => splitSqlStatements('/* open')).toThrow(/Unterminated block comment/);
  });
});
