import { describe, expect, it } from 'vitest';
import {
  composeNotFoundPage,
  composePrerenderedPage,
  escapeHtml,
  headTags,
  prerenderedFile,
  robotsTxt,
  sitemapXml,
} from './page-head.ts';
import { getSitePage, sitePages } from './site-pages.ts';

/** The shape of the built index.html (vite + vite-plugin-pwa + the theme script). */
const template = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
    <title>Satchel</title>
    <meta
      name="description"
      content="Satchel is the offline-first workspace."
    />
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/jsx-runtime-abc.js">
    <link rel="modulepreload" crossorigin href="/assets/useButton-abc.js">
    <link rel="stylesheet" crossorigin href="/assets/index-abc.css">
    <script src="/theme-init.js"></script>
  <link rel="manifest" href="/manifest.webmanifest"></head>
  <body>
    <div id="root"></div>
    <noscript><p>Satchel needs JavaScript.</p></noscript>
  </body>
</html>
`;

const origin = 'https://satchel.app';

describe('composePrerenderedPage', () => {
  const html = composePrerenderedPage(
    template,
    getSitePage('/pricing'),
    '<main id="main"><h1>Pricing</h1><p>$15 / month, $& and $1 stay as written</p></main>',
    origin,
  );

  it('gives the page its own title, description, canonical URL and Open Graph tags', () => {
    expect(html).toContain('<title>Pricing — Satchel</title>');
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).not.toContain('Satchel is the offline-first workspace.');
    expect(html).toContain(
      `<meta name="description" content="${getSitePage('/pricing').description}" />`,
    );
    expect(html).toContain('<link rel="canonical" href="https://satchel.app/pricing" />');
    expect(html).toContain('<meta property="og:url" content="https://satchel.app/pricing" />');
    expect(html).toContain(
      '<meta property="og:image" content="https://satchel.app/og-image.png" />',
    );
    expect(html).not.toContain('noindex');
  });

  it('puts the markup beside an empty #root, hidden until the app has taken over', () => {
    expect(html).toContain(
      '<div id="prerendered"><main id="main"><h1>Pricing</h1><p>$15 / month, $& and $1 stay as written</p></main></div>\n    <div id="root"></div>',
    );
    expect(html).toContain('<style>#prerendered:not([hidden]) + #root { display: none; }</style>');
    expect(html).not.toContain('<noscript>');
  });

  it('loads what the first paint needs first, and no module preloads', () => {
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).not.toContain('modulepreload');
    const order = ['name="viewport"', 'theme-init.js', 'rel="stylesheet"', 'type="module"'].map(
      (needle) => head.indexOf(needle),
    );
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(head.match(/rel="stylesheet"/g)).toHaveLength(1);
    expect(head.match(/theme-init\.js/g)).toHaveLength(1);
  });

  it('marks payment result pages noindex', () => {
    const page = composePrerenderedPage(
      template,
      getSitePage('/billing-error'),
      '<h1>x</h1>',
      origin,
    );
    expect(page).toContain('<meta name="robots" content="noindex" />');
  });

  it('refuses a template without an empty #root', () => {
    expect(() =>
      composePrerenderedPage(
        template.replace('<div id="root"></div>', ''),
        getSitePage('/'),
        '',
        origin,
      ),
    ).toThrow(/root/);
  });
});

describe('head tags', () => {
  it('escape text for attributes', () => {
    expect(escapeHtml(`"<a href='x'>&`)).toBe('&quot;&lt;a href=&#39;x&#39;&gt;&amp;');
    const tags = headTags({ ...getSitePage('/faq'), description: 'Say "hi" & <b>' }, origin);
    expect(tags).toContain('content="Say &quot;hi&quot; &amp; &lt;b&gt;"');
  });

  it('give the home page the product title and the bare origin', () => {
    const tags = headTags(getSitePage('/'), 'https://example.test/');
    expect(tags).toContain('<title>Satchel — the offline-first workspace for freelancers</title>');
    expect(tags).toContain('<link rel="canonical" href="https://example.test/" />');
  });
});

describe('files, sitemap and robots', () => {
  it('writes each page where the server looks for it', () => {
    expect(prerenderedFile('/')).toBe('home.html');
    expect(prerenderedFile('/pricing')).toBe('pricing/index.html');
    expect(prerenderedFile('/subscription/success')).toBe('subscription/success/index.html');
  });

  it('lists the indexable pages in the sitemap, nothing else', () => {
    const xml = sitemapXml(origin);
    for (const page of sitePages) {
      expect(xml.includes(`<loc>${origin}${page.path}</loc>`), page.path).toBe(page.indexable);
    }
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  });

  it('adds the absolute sitemap address to robots.txt', () => {
    expect(robotsTxt('User-agent: *\nAllow: /\n\n', origin)).toBe(
      'User-agent: *\nAllow: /\n\nSitemap: https://satchel.app/sitemap.xml\n',
    );
  });
});

describe('composeNotFoundPage', () => {
  const html = composeNotFoundPage(template, '<main><h1>Page not found</h1></main>');

  it('has its title, is never indexed and has no URL of its own', () => {
    expect(html).toContain('<title>Page not found — Satchel</title>');
    expect(html).toContain('<meta name="robots" content="noindex" />');
    expect(html).not.toContain('rel="canonical"');
    expect(html).not.toContain('og:url');
  });

  it('marks its copy so the app starts at once (its suggestions depend on the path)', () => {
    expect(html).toContain(
      '<div id="prerendered" data-boot-at-once><main><h1>Page not found</h1></main></div>',
    );
    expect(html).toContain('<div id="root"></div>');
  });
});
