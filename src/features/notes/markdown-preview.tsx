/**
 * A small, safe Markdown renderer for notes: headings, paragraphs, bold, italic, inline and
 * fenced code, bulleted, numbered and check lists, quotes and links (http and https only). It
 * builds React elements, never HTML strings, so anything that looks like HTML in a note (a
 * `<script>`) is shown as the text it is. A merge that kept both versions (note-conflict.ts) is
 * shown as two labelled, highlighted versions.
 */
import type { ReactNode } from 'react';
import { CONFLICT_EARLIER, CONFLICT_END, CONFLICT_LATER, CONFLICT_START } from './note-conflict.ts';

// ---------------------------------------------------------------- inline

const inlinePattern =
  /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)|\*\*(?=\S)([\s\S]*?\S)\*\*|__(?=\S)([\s\S]*?\S)__|\*(?=\S)([\s\S]*?\S)\*|_(?=\S)([\s\S]*?\S)_(?!\w)|\[([^\]]+)\]\(([^)\s]+)\)/;

function safeHref(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

export function renderInline(text: string, keyPrefix = 'i'): ReactNode[] {
  const out: ReactNode[] = [];
  let rest = text;
  let index = 0;
  while (rest !== '') {
    const match = inlinePattern.exec(rest);
    if (!match) {
      out.push(rest);
      break;
    }
    if (match.index > 0) out.push(rest.slice(0, match.index));
    const key = `${keyPrefix}-${index++}`;
    const [whole, , code, bold, bold2, italic, italic2, label, url] = match;
    if (code !== undefined) {
      out.push(
        <code key={key} className="rounded bg-surface-muted px-1 py-0.5 font-mono text-[0.9em]">
          {code}
        </code>,
      );
    } else if (bold !== undefined || bold2 !== undefined) {
      out.push(<strong key={key}>{renderInline(bold ?? bold2 ?? '', key)}</strong>);
    } else if (italic !== undefined || italic2 !== undefined) {
      out.push(<em key={key}>{renderInline(italic ?? italic2 ?? '', key)}</em>);
    } else if (label !== undefined && url !== undefined) {
      const href = safeHref(url);
      out.push(
        href ? (
          <a
            key={key}
            href={href}
            target="_blank"
            rel="noopener noreferrer"
            className="font-medium text-brand underline underline-offset-2"
          >
            {renderInline(label, key)}
          </a>
        ) : (
          // Not http(s) (javascript:, data:…): shown as the text it is, never a link.
          whole
        ),
      );
    }
    rest = rest.slice(match.index + whole.length);
  }
  return out;
}

// ---------------------------------------------------------------- blocks

type ListKind = 'ul' | 'ol';
interface ListItem {
  text: string;
  checked: boolean | null;
}
type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; lines: string[] }
  | { kind: 'list'; list: ListKind; items: ListItem[] }
  | { kind: 'quote'; lines: string[] }
  | { kind: 'code'; text: string }
  | { kind: 'conflict'; earlier: string; later: string };

const headingLine = /^(#{1,6})\s+(.*)$/;
const bulletLine = /^\s*[-*+]\s+(.*)$/;
const orderedLine = /^\s*\d+[.)]\s+(.*)$/;
const checkLine = /^\[([ xX])\]\s+(.*)$/;

export function parseBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const trimmed = line.trim();
    if (trimmed === '') {
      i += 1;
      continue;
    }
    if (trimmed === CONFLICT_START) {
      const earlier: string[] = [];
      const later: string[] = [];
      let part: string[] | null = null;
      i += 1;
      while (i < lines.length && (lines[i] ?? '').trim() !== CONFLICT_END) {
        const current = lines[i] ?? '';
        if (current.trim() === CONFLICT_EARLIER) part = earlier;
        else if (current.trim() === CONFLICT_LATER) part = later;
        else (part ?? earlier).push(current);
        i += 1;
      }
      i += 1;
      blocks.push({ kind: 'conflict', earlier: earlier.join('\n'), later: later.join('\n') });
      continue;
    }
    if (trimmed.startsWith('```')) {
      const code: string[] = [];
      i += 1;
      while (i < lines.length && !(lines[i] ?? '').trim().startsWith('```')) {
        code.push(lines[i] ?? '');
        i += 1;
      }
      i += 1;
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    const heading = headingLine.exec(trimmed);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]?.length ?? 1, text: heading[2] ?? '' });
      i += 1;
      continue;
    }
    const listKind: ListKind | null = bulletLine.test(line)
      ? 'ul'
      : orderedLine.test(line)
        ? 'ol'
        : null;
    if (listKind) {
      const pattern = listKind === 'ul' ? bulletLine : orderedLine;
      const items: ListItem[] = [];
      while (i < lines.length) {
        const item = pattern.exec(lines[i] ?? '');
        if (!item) break;
        const text = item[1] ?? '';
        const check = checkLine.exec(text);
        items.push(
          check ? { text: check[2] ?? '', checked: check[1] !== ' ' } : { text, checked: null },
        );
        i += 1;
      }
      blocks.push({ kind: 'list', list: listKind, items });
      continue;
    }
    if (trimmed.startsWith('>')) {
      const quote: string[] = [];
      while (i < lines.length && (lines[i] ?? '').trim().startsWith('>')) {
        quote.push((lines[i] ?? '').trim().replace(/^>\s?/, ''));
        i += 1;
      }
      blocks.push({ kind: 'quote', lines: quote });
      continue;
    }
    const paragraph: string[] = [];
    while (i < lines.length) {
      const current = lines[i] ?? '';
      const t = current.trim();
      if (
        t === '' ||
        t === CONFLICT_START ||
        t.startsWith('```') ||
        t.startsWith('>') ||
        headingLine.test(t) ||
        bulletLine.test(current) ||
        orderedLine.test(current)
      ) {
        break;
      }
      paragraph.push(current);
      i += 1;
    }
    blocks.push({ kind: 'paragraph', lines: paragraph });
  }
  return blocks;
}

const headingClasses = ['text-xl', 'text-lg', 'text-base', 'text-base', 'text-sm', 'text-sm'];

function lines(parts: string[], key: string): ReactNode[] {
  return parts.flatMap((part, index) => [
    ...(index > 0 ? [<br key={`${key}-br-${index}`} />] : []),
    ...renderInline(part, `${key}-${index}`),
  ]);
}

/**
 * Headings continue the page's outline: a note's first heading is `base`, and none skips a level
 * (a lone `###` is still the level under the page's section), as screen-reader users expect.
 */
interface Outline {
  base: number;
  previous: number;
}

function renderBlocks(blocks: Block[], outline: Outline, keyPrefix: string): ReactNode[] {
  return blocks.map((block, index) => {
    const key = `${keyPrefix}${index}`;
    switch (block.kind) {
      case 'heading': {
        const level = Math.max(
          outline.base,
          Math.min(6, outline.base + block.level - 1, outline.previous + 1),
        );
        outline.previous = level;
        const Tag = `h${level}` as 'h3';
        return (
          <Tag key={key} className={`font-semibold text-fg ${headingClasses[block.level - 1]}`}>
            {renderInline(block.text, key)}
          </Tag>
        );
      }
      case 'paragraph':
        return <p key={key}>{lines(block.lines, key)}</p>;
      case 'quote':
        return (
          <blockquote key={key} className="border-l-4 border-border-strong pl-3 text-fg-muted">
            {lines(block.lines, key)}
          </blockquote>
        );
      case 'code':
        return (
          <pre
            key={key}
            className="overflow-x-auto rounded-lg bg-surface-muted p-3 font-mono text-sm"
          >
            <code>{block.text}</code>
          </pre>
        );
      case 'list': {
        const isChecklist = block.items.some((item) => item.checked !== null);
        const Tag = block.list;
        return (
          <Tag
            key={key}
            className={
              isChecklist
                ? 'flex flex-col gap-1'
                : `${block.list === 'ul' ? 'list-disc' : 'list-decimal'} flex flex-col gap-1 pl-6`
            }
          >
            {block.items.map((item, itemIndex) =>
              item.checked === null ? (
                <li key={itemIndex}>{renderInline(item.text, `${key}-${itemIndex}`)}</li>
              ) : (
                <li key={itemIndex} className="flex items-start gap-2">
                  <input
                    type="checkbox"
                    checked={item.checked}
                    readOnly
                    disabled
                    aria-label={item.checked ? 'Done' : 'Not done'}
                    className="mt-1 size-4 accent-brand"
                  />
                  {/* min-w-0: a flex item is otherwise as wide as its longest word (a URL). */}
                  <span className={`min-w-0 ${item.checked ? 'text-fg-muted line-through' : ''}`}>
                    {renderInline(item.text, `${key}-${itemIndex}`)}
                  </span>
                </li>
              ),
            )}
          </Tag>
        );
      }
      case 'conflict':
        return (
          <div
            key={key}
            role="group"
            aria-label="Both versions of an edit made in two places"
            className="flex flex-col gap-2 rounded-lg border-2 border-brand bg-brand-soft p-3"
          >
            <p className="text-sm font-semibold text-fg">
              Edited in two places at once: keep one version.
            </p>
            {(
              [
                ['Saved first', block.earlier, 'border-brand'],
                ['Saved later', block.later, 'border-fg-muted'],
              ] as const
            ).map(([label, text, border]) => (
              <section
                key={label}
                aria-label={label}
                className={`rounded-md border-l-4 ${border} bg-surface p-2`}
              >
                <p className="text-xs font-semibold tracking-wide text-fg-muted uppercase">
                  {label}
                </p>
                <div className="mt-1 flex flex-col gap-2">
                  {text.trim() === '' ? (
                    <p className="text-fg-muted italic">(empty)</p>
                  ) : (
                    renderBlocks(parseBlocks(text), outline, `${key}-${label}-`)
                  )}
                </div>
              </section>
            ))}
          </div>
        );
    }
    return null;
  });
}

export interface MarkdownPreviewProps {
  source: string;
  /** The heading level a `#` heading gets, under the page's own headings. */
  headingBase?: number;
  className?: string;
}

export function MarkdownPreview({ source, headingBase = 3, className = '' }: MarkdownPreviewProps) {
  const blocks = parseBlocks(source);
  return (
    <div className={`flex flex-col gap-3 leading-relaxed break-words text-fg ${className}`}>
      {blocks.length === 0 ? (
        <p className="text-fg-muted italic">Nothing to preview yet.</p>
      ) : (
        renderBlocks(blocks, { base: headingBase, previous: headingBase - 1 }, 'b')
      )}
    </div>
  );
}
