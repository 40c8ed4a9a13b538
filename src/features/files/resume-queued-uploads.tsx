/**
 * In the signed-in shell: after a reload, the uploads waiting on this device (cut short by a closed
 * laptop, or picked offline) go on from whatever screen opens first. Before, only a screen that
 * shows files started the upload runner, so a reload that landed on the dashboard left them
 * waiting until the user opened a project.
 *
 * The shell's start pays one count of the device's upload queue: the files machinery (the runner,
 * tus-js-client on first send) loads only when something is there.
 */
import { useEffect, useState, type ComponentType } from 'react';
import { useOptionalSync } from '../workspace/sync-context.tsx';

export function ResumeQueuedUploads() {
  const db = useOptionalSync()?.handle.db;
  const [Runner, setRunner] = useState<ComponentType | null>(null);
  useEffect(() => {
    if (!db || Runner) return;
    let live = true;
    db.uploads
      .count()
      .then((waiting) => (waiting > 0 ? import('./files-runtime-runner.tsx') : null))
      .then(
        (module) => {
          if (live && module) setRunner(() => module.FilesRuntimeRunner);
        },
        // No queue to read or no code to load (offline, not cached): the files screens still
        // start the runner when they open.
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [db, Runner]);
  return Runner ? <Runner /> : null;
}
