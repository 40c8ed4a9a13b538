import contentDisposition from 'content-disposition';

/**
 * `attachment` (or `inline`) with the name as UTF-8 `filename*` and an ASCII `filename` for old
 * clients: the package's own fallback keeps Latin-1 bytes, which header parsers read differently.
 * One builder for local links and Azure's SAS, so a name downloads the same from either storage.
 */
export function contentDispositionHeader(fileName: string, inline: boolean): string {
  return contentDisposition(fileName, {
    type: inline ? 'inline' : 'attachment',
    fallback: fileName.replace(/[^\x20-\x7e]/g, '_'),
  });
}
