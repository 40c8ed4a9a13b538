import { sitePages, type SitePage } from './site-pages.ts';

/** The pages a visitor can look for: payment result pages only make sense coming from Stripe. */
const searchablePages: readonly SitePage[] = sitePages.filter((page) => page.indexable);

function normalise(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function words(text: string): string[] {
  const normalised = normalise(text);
  return normalised === '' ? [] : normalised.split(' ');
}

/**
 * Pages matching every word of the query (a word matches the start of any word of the page's
 * name, keywords or description), best first: a hit in the name outranks a keyword, which
 * outranks the description. An empty query matches nothing.
 */
export function searchSitePages(query: string): SitePage[] {
  const terms = words(query);
  if (terms.length === 0) return [];
  const scored: { page: SitePage; score: number }[] = [];
  for (const page of searchablePages) {
    const name = words(`${page.name} ${page.title ?? ''} ${page.path}`);
    const keywords = page.keywords.flatMap(words);
    const description = words(page.description);
    let score = 0;
    let isMatch = true;
    for (const term of terms) {
      const starts = (list: string[]) => list.some((word) => word.startsWith(term));
      if (starts(name)) score += 3;
      else if (starts(keywords)) score += 2;
      else if (starts(description)) score += 1;
      else {
        isMatch = false;
        break;
      }
    }
    if (isMatch) scored.push({ page, score });
  }
  return scored.sort((a, b) => b.score - a.score).map(({ page }) => page);
}

/** Levenshtein distance, for typos in a path. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * Pages the visitor probably meant by a path that does not exist: a near-miss of a page's path
 * ("/pricng", "/term-of-service") or a path whose words name a page ("/plans", "/help").
 * At most three, closest first.
 */
export function suggestPagesForPath(pathname: string): SitePage[] {
  const slug = normalise(pathname);
  if (slug === '') return [];
  // The whole path and each of its words: "/old/pricng" is a typo of "/pricing" too.
  const guesses = [slug, ...slug.split(' ')];
  const candidates: { page: SitePage; distance: number }[] = [];
  for (const page of searchablePages) {
    if (page.path === '/') continue;
    const pageSlug = normalise(page.path);
    const distance = Math.min(...guesses.map((guess) => editDistance(guess, pageSlug)));
    if (distance <= Math.max(1, Math.floor(pageSlug.length / 4))) {
      candidates.push({ page, distance });
    }
  }
  if (candidates.length === 0) {
    // No near-miss: treat the path's words as a search.
    return searchSitePages(slug).slice(0, 3);
  }
  return candidates
    .sort((a, b) => a.distance - b.distance)
    .slice(0, 3)
    .map(({ page }) => page);
}
