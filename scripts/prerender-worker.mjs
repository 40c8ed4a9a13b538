// Worker thread of the prerender step (prerender-site.mjs): a jsdom window stands in for the
// browser (the same environment as the app's component tests), the app renders each public page
// into it, and the page is written to dist as static HTML. Run in a worker so the DOM globals never
// leak into the Vite process.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { builtinEnvironments } from 'vitest/runtime';

const { bundleFile, portalBundleFile, portalPreloads, themeStorageKey, distDir, publicUrl } =
  workerData;
const template = await readFile(path.join(distDir, 'index.html'), 'utf8');

const environment = await builtinEnvironments.jsdom.setup(globalThis, {
  jsdom: { html: template, url: `${publicUrl}/`, runScripts: undefined, console: true },
});
// What jsdom lacks and the app uses: scrolling (the router scrolls to the top on each path change)
// and CSS.escape (react-aria builds selectors with it).
globalThis.scrollTo = () => undefined;
globalThis.CSS ??= {};
globalThis.CSS.escape ??= (value) =>
  String(value).replace(/^\d|[^\w\u00a0-\uffff-]/g, (char) =>
    /\d/.test(char) ? `\\3${char} ` : `\\${char}`,
  );

const site = await import(pathToFileURL(bundleFile).href);
const written = [];
for (const page of site.sitePages) {
  const { markup, title } = await site.renderPage(page.path);
  const html = site.composePrerenderedPage(template, page, markup, publicUrl);
  const file = site.prerenderedFile(page.path);
  await mkdir(path.dirname(path.join(distDir, file)), { recursive: true });
  await writeFile(path.join(distDir, file), html);
  written.push({ path: page.path, file, title, bytes: html.length });
}
// The not-found page, which the server sends with a 404 for any path that is no app route (the
// list beside it, from the router's tree: dynamic segments such as /clients/$id included).
{
  const { markup, title } = await site.renderPage(site.NOT_FOUND_RENDER_PATH);
  const html = site.composeNotFoundPage(template, markup);
  await writeFile(path.join(distDir, site.NOT_FOUND_FILE), html);
  written.push({ path: '(not found)', file: site.NOT_FOUND_FILE, title, bytes: html.length });
  await writeFile(path.join(distDir, 'app-routes.json'), JSON.stringify(site.appRoutePaths()));
}
// The client portal's page and its init script (src/features/portal/portal-prerender.tsx).
{
  const portal = await import(pathToFileURL(portalBundleFile).href);
  const files = portal.renderPortalPages(template, { preloads: portalPreloads, themeStorageKey });
  for (const { file, content } of files) {
    await writeFile(path.join(distDir, file), content);
    written.push({ path: '(client portal)', file, title: '', bytes: content.length });
  }
}
await writeFile(path.join(distDir, 'sitemap.xml'), site.sitemapXml(publicUrl));
const robots = path.join(distDir, 'robots.txt');
await writeFile(robots, site.robotsTxt(await readFile(robots, 'utf8'), publicUrl));

await environment.teardown(globalThis);
parentPort.postMessage(written);
