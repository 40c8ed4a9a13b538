/**
 * A drop zone for files dragged in from the desktop (the Files tab, the workspace logo, the chat
 * composer). Only drags that carry files count: a calendar chip or selected text dragged over it
 * is left to whatever else handles it. A file drag is always taken, even while the zone cannot
 * accept it (offline, busy), because an untaken drop makes the browser open the file in place
 * of the app; `enabled` only decides whether the zone lights up and the files are handed on.
 */
import { useState, type DragEvent } from 'react';

export interface FileDropProps {
  onDragEnter: (event: DragEvent<HTMLElement>) => void;
  onDragOver: (event: DragEvent<HTMLElement>) => void;
  onDragLeave: (event: DragEvent<HTMLElement>) => void;
  onDrop: (event: DragEvent<HTMLElement>) => void;
}

const carriesFiles = (event: DragEvent<HTMLElement>) => event.dataTransfer.types.includes('Files');

export function useFileDrop(
  onFiles: (files: File[]) => void,
  enabled = true,
): { dragging: boolean; dropProps: FileDropProps } {
  const [dragging, setDragging] = useState(false);
  const dropProps: FileDropProps = {
    onDragEnter: (event) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (enabled) setDragging(true);
    },
    onDragOver: (event) => {
      if (carriesFiles(event)) event.preventDefault();
    },
    onDragLeave: (event) => {
      // Leaving for a child of the zone is still inside it.
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop: (event) => {
      setDragging(false);
      if (!carriesFiles(event)) return;
      event.preventDefault();
      const files = [...event.dataTransfer.files];
      if (enabled && files.length > 0) onFiles(files);
    },
  };
  return { dragging, dropProps };
}
