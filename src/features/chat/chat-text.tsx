/**
 * A chat message's text with light formatting, built as React elements (never as HTML, so a
 * message can hold any characters without becoming markup): `code`, **bold**, _italic_ or
 * *italic*, web links (http and https only, trailing punctuation left outside), and @mentions of
 * the members the message names. Line breaks stay; everything else is plain text.
 */
import { Fragment, type ReactNode } from 'react';

/** Each token's pattern, tried in this order at each position. */
const TOKEN =
  /(`[^`\n]+`)|(\*\*[^*\n]+\*\*)|(?<![\w*])(\*[^*\s](?:[^*\n]*[^*\s])?\*)(?![\w*])|(?<!\w)(_[^_\s](?:[^_\n]*[^_\s])?_)(?!\w)|(https?:\/\/[^\s<>"]+)/g;
const TRAILING_PUNCTUATION = /[.,;:!?)\]'"]+$/;

export interface ChatTextProps {
  text: string;
  /** Display names of the members the message mentions ("Ana Lima"), highlighted after an @. */
  mentionNames?: readonly string[];
}

function mentionPattern(names: readonly string[]): RegExp | null {
  const escaped = names
    .filter((name) => name.trim() !== '')
    .sort((a, b) => b.length - a.length)
    .map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return escaped.length === 0 ? null : new RegExp(`@(?:${escaped.join('|')})(?![\\w])`, 'g');
}

function withMentions(text: string, pattern: RegExp | null, key: string): ReactNode[] {
  if (!pattern) return [text];
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const index = match.index;
    if (index > last) parts.push(text.slice(last, index));
    parts.push(
      <span key={`${key}-m${index}`} className="rounded bg-brand-soft px-0.5 font-medium text-fg">
        {match[0]}
      </span>,
    );
    last = index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

function formatLine(line: string, mentions: RegExp | null, key: string): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of line.matchAll(TOKEN)) {
    const [whole, code, bold, starItalic, underItalic, url] = match;
    const index = match.index;
    let end = index + whole.length;
    if (index > last)
      parts.push(...withMentions(line.slice(last, index), mentions, `${key}-${last}`));
    const id = `${key}-${index}`;
    if (code)
      parts.push(
        <code key={id} className="rounded bg-surface-muted px-1 font-mono text-[0.9em]">
          {code.slice(1, -1)}
        </code>,
      );
    else if (bold)
      parts.push(<strong key={id}>{withMentions(bold.slice(2, -2), mentions, id)}</strong>);
    else if (starItalic ?? underItalic)
      parts.push(
        <em key={id}>
          {withMentions((starItalic ?? underItalic ?? '').slice(1, -1), mentions, id)}
        </em>,
      );
    else if (url) {
      const trailing = TRAILING_PUNCTUATION.exec(url)?.[0] ?? '';
      const href = url.slice(0, url.length - trailing.length);
      end -= trailing.length;
      parts.push(
        <a
          key={id}
          href={href}
          target="_blank"
          rel="noopener noreferrer"
          className="break-all text-brand-strong underline underline-offset-2"
        >
          {href}
        </a>,
      );
    }
    last = end;
  }
  if (last < line.length) parts.push(...withMentions(line.slice(last), mentions, `${key}-${last}`));
  return parts;
}

export function ChatText({ text, mentionNames = [] }: ChatTextProps) {
  const mentions = mentionPattern(mentionNames);
  const lines = text.split('\n');
  return (
    <>
      {lines.map((line, index) => (
        <Fragment key={index}>
          {index > 0 && <br />}
          {formatLine(line, mentions, `l${index}`)}
        </Fragment>
      ))}
    </>
  );
}
