import { formatBytes as formatFileBytes } from '../files/file-words.ts';

/**
 * "812 KB", "1.4 GB": decimal units, as browsers and operating systems show disk space, so the
 * figure matches what the user sees elsewhere.
 */
export function formatBytes(bytes: number): string {
  return formatFileBytes(bytes, 1000);
}
