import type { PortalChangeRequest } from '#contract/endpoints/client-portal.ts';
import { cleanup, render } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buttonClassName } from '../../ui/button.tsx';
import { formatFileDateTime } from '../files/file-format.ts';
import { handOverCopy, holdCopySubmit, takeCopy } from './portal-copy.ts';
import type { PortalFileCopies } from './portal-file-copies.ts';
import { prefetchAddress, type PrefetchStore } from './portal-prefetch.ts';
import { copyIconsTemplate } from './portal-prerender.tsx';
import {
  copyButtonClassName,
  formatCopyDateTime,
  paintProjectCopy,
  startProjectCopy,
  type ProjectCopyState,
} from './portal-project-copy.ts';
import { PortalProjectScreen } from './portal-project-screen.tsx';
import { readPortalSnapshot, writePortalSnapshot, type PortalSnapshot } from './portal-snapshot.ts';
import { memoryStorage, portalChangeRequest } from './portal-test-api.ts';
import {
  sampleClientId,
  sampleFiles,
  sampleMilestones,
  sampleProject,
  sampleProjectId,
  sampleWorkspace,
  sampleWorkspaceId,
} from './portal-test-samples.ts';

afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

const projectId = sampleProjectId;
const clientId = sampleClientId;
const workspaceId = sampleWorkspaceId;
const project = sampleProject({
  description: 'A new shop front: sign, <window> lettering & menu board.',
});
const milestones = sampleMilestones('awaiting_approval');
const files = sampleFiles();
const workspace = sampleWorkspace({ brandColor: '#0E7490' });
const changeRequests: PortalChangeRequest[] = [
  portalChangeRequest({
    id: '0192f3a0-0000-4000-8000-000000000c02',
    title: 'Bigger logo',
    createdAt: '2026-03-11T10:00:00.000Z',
  }),
  portalChangeRequest({
    id: '0192f3a0-0000-4000-8000-000000000c03',
    title: 'Dark footer',
    description: 'Like the sign.',
    desiredDate: '2026-04-15',
    source: 'member',
    createdAt: '2026-03-08T10:00:00.000Z',
  }),
];
const SAVED_AT = Date.parse('2026-03-14T08:30:00.000Z');
const snapshot: PortalSnapshot = {
  savedAt: SAVED_AT,
  project,
  milestones,
  files,
  workspace,
  changeRequests,
};

/** The copy's page: its project copy and the icons' template, as portal-prerender.tsx writes them. */
function copyPage() {
  document.body.innerHTML =
    `<div id="prerendered"><main id="main"><div data-portal-copy="project"><p role="status">Opening your project…</p></div></main>` +
    `${copyIconsTemplate()}</div><div id="root"></div>`;
  return document.getElementById('prerendered')!;
}

const noFileCopies: PortalFileCopies = {
  kept: () => Promise.resolve(new Map()),
  keep: () => Promise.resolve(),
  open: () => Promise.resolve(null),
  forget: () => Promise.resolve(),
};

/** The live page from the same copy, its first answers never in (as the copy's 'checking'). */
function renderLive(online = true) {
  const storage = memoryStorage();
  writePortalSnapshot(storage, snapshot);
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
  const never = () => new Promise<never>(() => undefined);
  const { container } = render(
    <main>
      <PortalProjectScreen
        projectId={projectId}
        clientId={clientId}
        callEndpoint={never}
        toGate={() => undefined}
        storage={storage}
        fileCopies={noFileCopies}
        now={() => SAVED_AT}
      />
    </main>,
  );
  return container;
}

/** An element as markup with its attributes in order, without the namespace a parser adds. */
function canonical(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return (node.textContent ?? '').replace(/\s+/g, ' ');
  if (!(node instanceof Element)) return '';
  const attributes = [...node.attributes]
    // What react-aria adds to a button for its own handling: nothing a visitor sees.
    .filter(
      (attribute) =>
        !['xmlns', 'style', 'data-rac', 'data-react-aria-pressable'].includes(attribute.name) &&
        !(node.tagName === 'BUTTON' && ['id', 'tabindex'].includes(attribute.name)),
    )
    .map((attribute) => `${attribute.name}="${attribute.value}"`)
    .sort()
    .join(' ');
  const children = [...node.childNodes].map(canonical).join('');
  return `<${node.tagName.toLowerCase()} ${attributes}>${children}</>`;
}

const texts = (root: ParentNode, selector: string) =>
  [...root.querySelectorAll(selector)].map((element) =>
    (element.textContent ?? '').replace(/\s+/g, ' ').trim(),
  );
const classes = (root: ParentNode, selector: string) =>
  [...root.querySelectorAll(selector)].map((element) => element.getAttribute('class'));

describe('the project copy', () => {
  it('draws the buttons with the live buttons’ classes', () => {
    for (const variant of ['primary', 'secondary', 'ghost'] as const) {
      expect(copyButtonClassName(variant)).toBe(buttonClassName(variant));
    }
    const at = '2026-03-11T09:00:00.000Z';
    expect(formatCopyDateTime(at)).toBe(formatFileDateTime(at));
  });

  it.each<[ProjectCopyState, boolean]>([
    ['checking', true],
    ['offline', false],
  ])(
    'shows what the live page shows first (%s): its words, headings, regions and classes',
    (state, online) => {
      const live = renderLive(online);
      const copy = document.createElement('div');
      copyPage();
      paintProjectCopy(document, { snapshot, state });
      copy.innerHTML = document.querySelector('[data-portal-copy="project"]')!.innerHTML;

      // The header, word for word and class for class (what a phone shows first).
      const liveHeader = live.querySelector('header')!;
      const copyHeader = copy.querySelector('header')!;
      expect(canonical(copyHeader)).toBe(canonical(liveHeader));
      expect(copyHeader.style.borderTopColor).toBe(liveHeader.style.borderTopColor);
      // The copy's headings are the live page's, in order (the live page adds invoices and chat).
      const liveHeadings = texts(live, 'h1, h2, h3');
      const copyHeadings = texts(copy, 'h1, h2, h3');
      expect(liveHeadings.filter((heading) => copyHeadings.includes(heading))).toEqual(
        copyHeadings,
      );
      expect(copyHeadings).toEqual(
        expect.arrayContaining(['Shop front', 'Milestones', 'Change requests', 'Files']),
      );
      // Milestones and files, each item as the live page draws it.
      for (const selector of [
        '[aria-labelledby="portal-milestones"] li',
        '[aria-labelledby="portal-files"] li',
      ]) {
        const copySelector = selector.replace('portal-', 'portal-copy-');
        expect(texts(copy, copySelector)).toEqual(texts(live, selector));
        expect(classes(copy, `${copySelector}, ${copySelector} *`).filter(Boolean)).toEqual(
          classes(live, `${selector}, ${selector} *`).filter(Boolean),
        );
      }
      expect(texts(copy, '[aria-labelledby="portal-copy-change-requests"] h3')).toEqual(
        texts(live, '[aria-labelledby="portal-change-requests"] h3'),
      );
      expect(copy.querySelector('[role="progressbar"]')?.textContent).toBe(
        live.querySelector('[role="progressbar"]')?.textContent,
      );
      expect(document.title).toBe('Shop front — Satchel');
    },
  );

  it('is accessible', async () => {
    copyPage();
    paintProjectCopy(document, { snapshot, state: 'offline' });
    const { violations } = await axe.run(
      { include: [document.body] },
      { rules: { 'color-contrast': { enabled: false } } },
    );
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([]);
    expect(document.body.textContent).toContain('<window> lettering & menu board');
  });
});

/** The init script's answers, as fetch would give them. */
function prefetched(answers: Record<string, unknown>, status = 200): PrefetchStore {
  const store: PrefetchStore = {};
  const address = (endpoint: string, key: string, value: string) =>
    prefetchAddress(endpoint, key, value);
  const reply = (body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status }));
  store[address('get-client-project', 'id', projectId)] = reply(answers.project);
  store[address('get-project-milestones', 'projectId', projectId)] = reply(answers.milestones);
  store[address('get-project-files', 'projectId', projectId)] = reply(answers.files);
  store[address('get-change-requests', 'projectId', projectId)] = reply(answers.changeRequests);
  store[address('get-workspace-settings', 'workspaceId', workspaceId)] = reply(answers.workspace);
  return store;
}

describe('startProjectCopy', () => {
  const start = (storage: Storage, store: PrefetchStore | undefined, online = true) =>
    startProjectCopy({
      doc: document,
      storage,
      projectId,
      clientId,
      online,
      store,
      now: () => SAVED_AT,
    });

  it('paints the init script’s answers as up to date, and keeps them for the live page', async () => {
    copyPage();
    const storage = memoryStorage();
    const store = prefetched({
      project: { project },
      milestones: { milestones },
      files: { files },
      changeRequests: { changeRequests },
      workspace: { workspace },
    });
    expect(await start(storage, store)).toBe('fresh');
    expect(document.querySelector('h1')?.textContent).toBe('Shop front');
    expect(document.querySelector('[role="status"]')?.textContent).toBe('Up to date');
    expect(readPortalSnapshot(storage, projectId)).toEqual(snapshot);
    // Still the API client's to take: each answer was read from a clone.
    const answer = await store[prefetchAddress('get-client-project', 'id', projectId)]!;
    expect(await answer.json()).toEqual({ project });
  });

  it('paints nothing when an answer failed (the live page says why)', async () => {
    copyPage();
    const storage = memoryStorage();
    const store = prefetched({}, 401);
    expect(await start(storage, store)).toBeNull();
    expect(document.querySelector('h1')).toBeNull();
    expect(readPortalSnapshot(storage, projectId)).toBeNull();
  });

  it('paints the copy kept on the device at once, offline with its time', async () => {
    copyPage();
    const storage = memoryStorage();
    writePortalSnapshot(storage, snapshot);
    expect(await start(storage, undefined, false)).toBe('offline');
    expect(document.querySelector('[role="status"]')?.textContent).toContain(
      `You’re offline. Showing your project as of ${formatFileDateTime(new Date(SAVED_AT).toISOString())}.`,
    );
    // Sign-off needs the network: the buttons are off, and say why.
    const approve = [...document.querySelectorAll('button')].find(
      (button) => button.textContent?.trim() === 'Approve',
    );
    expect(approve?.disabled).toBe(true);
  });

  it('keeps nothing of another client’s project', async () => {
    copyPage();
    const storage = memoryStorage();
    writePortalSnapshot(storage, { ...snapshot, project: { ...project, clientId: 'other' } });
    expect(await start(storage, undefined, false)).toBeNull();
  });
});

describe('a press on the copy', () => {
  it('is pressed again on the live page’s same button', () => {
    const copy = copyPage();
    holdCopySubmit(copy);
    paintProjectCopy(document, { snapshot, state: 'fresh' });
    const download = [...copy.querySelectorAll('button')].find(
      (button) => button.getAttribute('aria-label') === 'Download sign.svg',
    )!;
    download.click();
    const state = takeCopy(document);
    expect(state?.press).toEqual({ section: 'Files', name: 'Download sign.svg', index: 0 });

    const live = document.getElementById('root')!;
    live.innerHTML =
      '<section><h2>Files</h2><button aria-label="Download handover.pdf"></button><button aria-label="Download sign.svg"></button></section>';
    const pressed = vi.fn();
    live.querySelectorAll('button')[1]!.addEventListener('click', pressed);
    vi.useFakeTimers();
    try {
      handOverCopy(state!, document);
      vi.runAllTimers();
    } finally {
      vi.useRealTimers();
    }
    expect(pressed).toHaveBeenCalledTimes(1);
  });
});
