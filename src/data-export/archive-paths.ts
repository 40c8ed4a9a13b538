/**
 * Where a file's bytes go in the zip: files/<project>/<folder>/<name>. Names come from people, so
 * each segment is made safe for every unzip tool (no slashes, no "." or "..", no characters
 * Windows refuses, at most 120 characters), and two files that would land on one path (two
 * projects of the same name) get " (2)", " (3)" before the extension.
 */

const UNSAFE = /[<>:"|?*\\/]/g;

/** C0 control characters (never useful in a name, refused by Windows). */
const isControl = (char: string) => char.charCodeAt(0) < 0x20;

export function safeSegment(segment: string): string {
  const cleaned = [...segment.replace(UNSAFE, '_')]
    .map((char) => (isControl(char) ? '_' : char))
    .join('')
    .trim()
    .slice(0, 120)
    .replace(/[. ]+$/, '');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? '_' : cleaned;
}

export function fileArchivePath(projectName: string, folder: string, name: string): string {
  const folders = folder.split('/').filter((part) => part.trim() !== '');
  return ['files', safeSegment(projectName), ...folders.map(safeSegment), safeSegment(name)].join(
    '/',
  );
}

/** The path itself when free, else the first free "name (n).ext"; records it as taken. */
export function uniquePath(path: string, taken: Set<string>): string {
  let candidate = path;
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  const [stem, ext] = dot > slash + 1 ? [path.slice(0, dot), path.slice(dot)] : [path, ''];
  for (let n = 2; taken.has(candidate.toLowerCase()); n += 1) candidate = `${stem} (${n})${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}
