/**
 * Up to two initials for an avatar: the first character of the first two words, whole characters
 * as a reader sees them (an emoji or an accented letter is one, never half a surrogate pair).
 */
const graphemes =
  typeof Intl !== 'undefined' && 'Segmenter' in Intl
    ? new Intl.Segmenter(undefined, { granularity: 'grapheme' })
    : null;

function firstCharacter(word: string): string {
  if (graphemes) {
    for (const { segment } of graphemes.segment(word)) return segment;
    return '';
  }
  return Array.from(word)[0] ?? '';
}

export function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => firstCharacter(word).toUpperCase());
  return letters.join('') || '?';
}
