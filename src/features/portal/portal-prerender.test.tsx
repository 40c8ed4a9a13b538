import { describe, expect, it } from 'vitest';
import { PORTAL_COPY_ID } from './portal-copy.ts';
import { PORTAL_INIT_FILE } from './portal-init-script.ts';
import { PORTAL_PAGE_FILE, renderPortalPages } from './portal-prerender.tsx';
import { PROJECT_COPY_ICONS_ID, projectCopyIcons } from './portal-project-copy.ts';

/** The built index.html's shape: the app shell's preloads, the stylesheet after the entry. */
const template = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Satchel</title>
    <meta name="description" content="The app." />
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/mount-app-abc.js">
    <link rel="stylesheet" crossorigin href="/assets/index-abc.css">
    <script src="/theme-init.js"></script>
  </head>
  <body>
    <div id="root"></div>
    <noscript><p>Satchel needs JavaScript to run.</p></noscript>
  </body>
</html>`;

function parse(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}

describe('renderPortalPages', () => {
  const files = renderPortalPages(template, {
    preloads: ['assets/mount-portal-abc.js', 'assets/react-abc.js'],
    themeStorageKey: 'satchel-theme',
  });
  const byFile = new Map(files.map((file) => [file.file, file.content]));
  const html = byFile.get(PORTAL_PAGE_FILE)!;
  const doc = parse(html);

  it('writes the portal’s page and its init script', () => {
    expect([...byFile.keys()]).toEqual([PORTAL_PAGE_FILE, PORTAL_INIT_FILE]);
    expect(byFile.get(PORTAL_INIT_FILE)).toContain('client_access_session');
  });

  it('is never indexed, and preloads the portal’s scripts instead of the app shell’s', () => {
    expect(doc.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
    expect(html).not.toContain('mount-app-abc.js');
    expect(
      [...doc.querySelectorAll('link[rel="modulepreload"]')].map((link) =>
        link.getAttribute('href'),
      ),
    ).toEqual(['/assets/mount-portal-abc.js', '/assets/react-abc.js']);
    // The portal's init script in place of the theme's, before the stylesheet and the entry.
    expect(html).not.toContain('theme-init.js');
    expect(html.indexOf(PORTAL_INIT_FILE)).toBeLessThan(html.indexOf('index-abc.css'));
    expect(html.indexOf('index-abc.css')).toBeLessThan(html.indexOf('index-abc.js'));
    // The portal needs JavaScript, and says so without it.
    expect(doc.querySelector('noscript')).not.toBeNull();
  });

  it('holds both pages’ copies beside the app’s mount point, one shown by the init script', () => {
    const copy = doc.getElementById(PORTAL_COPY_ID)!;
    expect(copy.nextElementSibling?.id).toBe('root');
    const style = doc.querySelector('style')?.textContent ?? '';
    expect(style).toContain(`#${PORTAL_COPY_ID}:not([hidden]) + #root`);
    expect(style).toContain('html[data-portal-page^="gate"] [data-portal-copy="project"]');
    expect(style).toContain('html:not([data-portal-page^="gate"]) [data-portal-copy="gate"]');
    // One layout around both.
    expect(copy.querySelectorAll('header')).toHaveLength(1);
    expect(copy.textContent).toContain('Shared with you through Satchel.');

    const gate = copy.querySelector('[data-portal-copy="gate"]')!;
    expect(gate.querySelector('h1')?.textContent).toBe('Client access');
    expect(gate.querySelector('h1')?.hasAttribute('autofocus')).toBe(true);
    // Nothing can be sent from the copy: its form is a plain element.
    expect(gate.querySelector('form')).toBeNull();
    expect(gate.querySelector('[novalidate]')).toBeNull();
    expect(gate.querySelector('input[name="password"]')?.getAttribute('type')).toBe('password');
    expect(gate.querySelector('button[type="submit"]')?.textContent).toBe('Open my project');

    const project = copy.querySelector('[data-portal-copy="project"]')!;
    expect(project.querySelector('[role="status"]')?.textContent).toContain(
      'Opening your project…',
    );
    // The icons a project's copy draws, inert until then, and outside what the copy replaces.
    const icons = copy.querySelector(`template#${PROJECT_COPY_ICONS_ID}`) as HTMLTemplateElement;
    expect(
      [...icons.content.querySelectorAll('svg')].map((svg) => svg.getAttribute('data-copy-icon')),
    ).toEqual([...projectCopyIcons]);
    expect(project.contains(icons)).toBe(false);
  });
});
