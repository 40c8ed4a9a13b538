const units = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * "812 KB", "1.4 GB": decimal units, as browsers and operating systems show disk space, so the
 * figure matches what the user sees elsewhere.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return 'unknown';
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  if (unit === 0) return value === 1 ? '1 byte' : `${Math.round(value)} bytes`;
  const digits = value < 10 ? 1 : 0;
  return `${value.toFixed(digits).replace(/\.0$/, '')} ${units[unit]}`;
}
