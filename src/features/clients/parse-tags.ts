/**
 * "design, #Retainer ,design" -> ["design", "Retainer"]: trimmed, no empties, no repeats. Leading
 * "#" characters are dropped because people type tags the way they are shown ("#design") and the
 * tag list adds its own "#", so a kept one would read "##design".
 */
export function parseTags(text: string): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of text.split(',')) {
    const tag = raw.trim().replace(/^#+/, '').trim();
    if (tag === '' || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  return tags;
}
