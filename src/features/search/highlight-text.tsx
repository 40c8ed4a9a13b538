/**
 * A hit's title or snippet with the matched words marked. The index reports matched words folded
 * (lower case, no accents); each word of the shown text is folded the same way to find them.
 */
import { foldText } from '../../search/search-index.ts';

const WORD = /[^\n\r\p{Z}\p{P}]+/gu;

export function HighlightText({ text, terms }: { text: string; terms: ReadonlySet<string> }) {
  const parts: (string | { marked: string })[] = [];
  let last = 0;
  for (const match of text.matchAll(WORD)) {
    if (!terms.has(foldText(match[0]))) continue;
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push({ marked: match[0] });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return (
    <>
      {parts.map((part, index) =>
        typeof part === 'string' ? (
          part
        ) : (
          <mark key={index} className="rounded-sm bg-brand-soft font-semibold text-fg">
            {part.marked}
          </mark>
        ),
      )}
    </>
  );
}

/**
 * About `width` characters of `text` around its first matched word, on one line, or null when no
 * word of it matched (the title did).
 */
export function snippetAround(text: string, terms: ReadonlySet<string>, width = 90): string | null {
  for (const match of text.matchAll(WORD)) {
    if (!terms.has(foldText(match[0]))) continue;
    const start = Math.max(0, match.index - Math.floor(width / 3));
    const end = Math.min(text.length, start + width);
    const line = text.slice(start, end).replace(/\s+/g, ' ').trim();
    return `${start > 0 ? '…' : ''}${line}${end < text.length ? '…' : ''}`;
  }
  return null;
}
