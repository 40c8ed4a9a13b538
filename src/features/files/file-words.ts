/**
 * The Files screens' words for a size, a date and a kind of file, with no dependency: the Files
 * tab (file-format.ts, which adds the icons) and the portal's static copy of a project
 * (portal-project-copy.ts, a small chunk that paints before React loads) say them the same way.
 */
const byteUnits = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * "812 KB", "1.4 GB" in units of 1024 by default, as the plans state their storage ("1 GB" is
 * 1 GiB) and the server words its limits ("larger than the 250 MB a single upload may be"); in
 * units of 1000 where the figure sits beside the disk space the system shows.
 */
export function formatBytes(bytes: number, unitSize: 1000 | 1024 = 1024): string {
  if (!Number.isFinite(bytes) || bytes < 0) return 'unknown';
  let value = bytes;
  let unit = 0;
  while (value >= unitSize && unit < byteUnits.length - 1) {
    value /= unitSize;
    unit += 1;
  }
  if (unit === 0) return value === 1 ? '1 byte' : `${Math.round(value)} bytes`;
  const digits = value < 10 ? 1 : 0;
  return `${value.toFixed(digits).replace(/\.0$/, '')} ${byteUnits[unit]}`;
}

// Made on first use: a page that shows no date never pays for the locale data.
let dateFormat: Intl.DateTimeFormat | undefined;
let dateTimeFormat: Intl.DateTimeFormat | undefined;

export function formatFileDate(iso: string): string {
  const at = Date.parse(iso);
  dateFormat ??= new Intl.DateTimeFormat(undefined, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
  return Number.isNaN(at) ? '' : dateFormat.format(at);
}

export function formatFileDateTime(iso: string): string {
  const at = Date.parse(iso);
  dateTimeFormat ??= new Intl.DateTimeFormat(undefined, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
  return Number.isNaN(at) ? '' : dateTimeFormat.format(at);
}

export type FileKind = 'image' | 'video' | 'audio' | 'text' | 'spreadsheet' | 'archive' | 'other';

/** What a file is, for its icon: by its type, else by its name's extension. */
export function fileKindOf(type: string, name: string): FileKind {
  const base = type.toLowerCase();
  const extension = name.toLowerCase().split('.').pop() ?? '';
  if (base.startsWith('image/')) return 'image';
  if (base.startsWith('video/')) return 'video';
  if (base.startsWith('audio/')) return 'audio';
  if (
    base === 'application/pdf' ||
    base.startsWith('text/') ||
    ['doc', 'docx', 'md'].includes(extension)
  ) {
    return 'text';
  }
  if (['csv', 'xls', 'xlsx', 'numbers', 'ods'].includes(extension)) return 'spreadsheet';
  if (['zip', 'rar', '7z', 'gz', 'tar'].includes(extension) || base.includes('zip')) {
    return 'archive';
  }
  return 'other';
}
