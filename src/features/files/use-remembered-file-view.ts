/**
 * List or grid, remembered on this device (the project workspace's URL carries only its tab; the
 * route's search schema is not this feature's to change). Local storage may be unavailable
 * (private modes): then the choice lasts as long as the screen.
 */
import { useCallback, useState } from 'react';

export type FileView = 'list' | 'grid';
const STORAGE_KEY = 'satchel.files.view';

function read(): FileView {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) === 'grid' ? 'grid' : 'list';
  } catch {
    return 'list';
  }
}

export function useRememberedFileView(): [FileView, (view: FileView) => void] {
  const [view, setView] = useState<FileView>(read);
  const remember = useCallback((next: FileView) => {
    setView(next);
    try {
      globalThis.localStorage?.setItem(STORAGE_KEY, next);
    } catch {
      // Not remembered.
    }
  }, []);
  return [view, remember];
}
