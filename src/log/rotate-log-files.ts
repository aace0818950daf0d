/**
 * Rotation of a log by renames: path.N-1 → path.N … path → path.1, the oldest beyond `maxFiles` removed
 * (with `maxFiles` 0 the log itself is). The file sink reopens the path afterwards. Only the files there
 * move — path.1, path.2 … up to the first missing one — so the work does not grow with `maxFiles`.
 */
import * as fs from 'node:fs';

/** Shifts the kept files up by one and frees the path; throws the fs error. */
export function rotateLogFiles(path: string, maxFiles: number): void {
  // a file above a gap is older than the ones below it and stays where it is: nothing passes it
  let present = 0;
  while (present < maxFiles - 1 && fs.existsSync(`${path}.${present + 1}`)) present++;
  for (let i = present; i >= 1; i--) fs.renameSync(`${path}.${i}`, `${path}.${i + 1}`);
  if (maxFiles >= 1) fs.renameSync(path, `${path}.1`);
  else fs.unlinkSync(path);
  if (fs.existsSync(`${path}.${maxFiles + 1}`)) fs.unlinkSync(`${path}.${maxFiles + 1}`);
}
