/**
 * The formatting toolbar's edits of a Markdown body, as pure functions of the text and the
 * selection: each returns the new text and the selection to restore, so the textarea keeps the
 * caret where the person expects it.
 */
export interface TextEdit {
  text: string;
  selectionStart: number;
  selectionEnd: number;
}

export type MarkdownFormat = 'bold' | 'italic' | 'heading' | 'bullet' | 'checklist' | 'link';

/** Wraps the selection in `marker` (or removes it when already wrapped). */
function wrap(text: string, start: number, end: number, marker: string, placeholder: string) {
  const before = text.slice(0, start);
  const selected = text.slice(start, end);
  const after = text.slice(end);
  if (before.endsWith(marker) && after.startsWith(marker)) {
    return {
      text: before.slice(0, -marker.length) + selected + after.slice(marker.length),
      selectionStart: start - marker.length,
      selectionEnd: end - marker.length,
    };
  }
  const inner = selected === '' ? placeholder : selected;
  return {
    text: before + marker + inner + marker + after,
    selectionStart: start + marker.length,
    selectionEnd: start + marker.length + inner.length,
  };
}

/** Adds `prefix` to every line the selection touches (or removes it when all have it). */
function prefixLines(text: string, start: number, end: number, prefix: string, strip: RegExp) {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const nextBreak = text.indexOf('\n', end);
  const lineEnd = nextBreak === -1 ? text.length : nextBreak;
  const lines = text.slice(lineStart, lineEnd).split('\n');
  const allHave = lines.every((line) => line.startsWith(prefix));
  const changed = lines.map((line) =>
    allHave ? line.slice(prefix.length) : prefix + line.replace(strip, ''),
  );
  const block = changed.join('\n');
  const delta = block.length - (lineEnd - lineStart);
  const single = lines.length === 1;
  return {
    text: text.slice(0, lineStart) + block + text.slice(lineEnd),
    selectionStart: single ? Math.max(lineStart, start + delta) : lineStart,
    selectionEnd: single ? Math.max(lineStart, end + delta) : lineStart + block.length,
  };
}

const listMarker = /^(\s*([-*+]|\d+[.)])\s+(\[[ xX]\]\s+)?|#{1,6}\s+)/;

export function applyFormat(
  format: MarkdownFormat,
  text: string,
  selectionStart: number,
  selectionEnd: number,
): TextEdit {
  const start = Math.min(selectionStart, selectionEnd);
  const end = Math.max(selectionStart, selectionEnd);
  switch (format) {
    case 'bold':
      return wrap(text, start, end, '**', 'bold text');
    case 'italic':
      return wrap(text, start, end, '_', 'italic text');
    case 'heading':
      return prefixLines(text, start, end, '## ', listMarker);
    case 'bullet':
      return prefixLines(text, start, end, '- ', listMarker);
    case 'checklist':
      return prefixLines(text, start, end, '- [ ] ', listMarker);
    case 'link': {
      const selected = text.slice(start, end);
      const isUrl = /^https?:\/\/\S+$/.test(selected);
      const label = isUrl || selected === '' ? 'link text' : selected;
      const url = isUrl ? selected : 'https://';
      const inserted = `[${label}](${url})`;
      const next = text.slice(0, start) + inserted + text.slice(end);
      // Select what is left to type: the label for a pasted address, else the address.
      if (isUrl || selected === '') {
        return { text: next, selectionStart: start + 1, selectionEnd: start + 1 + label.length };
      }
      const urlStart = start + label.length + 3;
      return { text: next, selectionStart: urlStart, selectionEnd: urlStart + url.length };
    }
  }
}
