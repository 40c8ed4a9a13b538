import { describe, expect, it } from 'vitest';
import { editDistance, searchSitePages, suggestPagesForPath } from './site-search.ts';

const paths = (pages: { path: string }[]) => pages.map((page) => page.path);

describe('searchSitePages', () => {
  it('finds pages by name, keyword and description, name hits first', () => {
    expect(paths(searchSitePages('pricing'))[0]).toBe('/pricing');
    expect(paths(searchSitePages('kanban'))).toEqual(['/features']);
    expect(paths(searchSitePages('PRIV'))[0]).toBe('/privacy-policy');
  });

  it('needs every word to match, and ignores case, accents and punctuation', () => {
    expect(paths(searchSitePages('client portal'))).toContain('/client-portal-demo');
    expect(paths(searchSitePages('portal   démo!'))).toEqual(['/client-portal-demo']);
    expect(searchSitePages('portal zebra')).toEqual([]);
  });

  it('matches nothing for an empty query and never offers payment result pages', () => {
    expect(searchSitePages('   ')).toEqual([]);
    expect(paths(searchSitePages('payment'))).not.toContain('/billing-success');
  });
});

describe('suggestPagesForPath', () => {
  it('catches typos in a page path', () => {
    expect(paths(suggestPagesForPath('/pricng'))).toEqual(['/pricing']);
    expect(paths(suggestPagesForPath('/term-of-service'))).toEqual(['/terms-of-service']);
    expect(paths(suggestPagesForPath('/FAQs'))).toEqual(['/faq']);
    expect(paths(suggestPagesForPath('/old-site/pricng'))).toEqual(['/pricing']);
  });

  it('falls back to the words of the path', () => {
    expect(paths(suggestPagesForPath('/plans'))[0]).toBe('/pricing');
    expect(suggestPagesForPath('/')).toEqual([]);
    expect(suggestPagesForPath('/qwxzv')).toEqual([]);
  });
});

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('pricing', 'pricng')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});
