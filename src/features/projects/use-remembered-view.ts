/**
 * The last list/board choice on this device, used when the URL does not name a view (the nav
 * link, a fresh visit). Local storage may be unavailable (private modes): then it is just not
 * remembered.
 */
import { useCallback, useState } from 'react';
import { projectViews, type ProjectView } from './projects-search.ts';

const STORAGE_KEY = 'satchel.projects.view';

function read(): ProjectView {
  try {
    const stored = globalThis.localStorage?.getItem(STORAGE_KEY);
    return projectViews.find((view) => view === stored) ?? 'list';
  } catch {
    return 'list';
  }
}

export function useRememberedView(): [ProjectView, (view: ProjectView) => void] {
  const [view, setView] = useState<ProjectView>(read);
  const remember = useCallback((next: ProjectView) => {
    setView(next);
    try {
      globalThis.localStorage?.setItem(STORAGE_KEY, next);
    } catch {
      // Not remembered; the URL still carries the choice.
    }
  }, []);
  return [view, remember];
}
