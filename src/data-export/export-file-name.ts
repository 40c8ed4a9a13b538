/** The download's name: `satchel-<workspace>-<yyyy-mm-dd>.zip`, the date as the user's calendar shows it. */

/** A file-name-safe slug of the workspace's name: lower-case ASCII letters, digits and dashes. */
export function workspaceSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || 'workspace';
}

export function exportFileName(workspaceName: string, at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  return `satchel-${workspaceSlug(workspaceName)}-${date}.zip`;
}
