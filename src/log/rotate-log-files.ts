/**
 * Rotation of a log by renames: path.N-1 → path.N … path → path.1, the oldest beyond `maxFiles` removed
 * (with `maxFiles` 0 the log itself is). The file sink reopens the path afterwards.
 */
import * as fs from 'node:fs';

/** Shifts the kept files up by one and frees the path; throws the fs error. */
export function rotateLogFiles(path: string, maxFiles: number): void {
  for (let i = maxFiles - 1; i >= 1; i--) {
    if (fs.existsSync(`${path}.${i}`)) fs.renameSync(`${path}.${i}`, `${path}.${i + 1}`);
  }
  if (maxFiles >= 1) fs.renameSync(path, `${path}.1`);
  else fs.unlinkSync(path);
  if (fs.existsSync(`${path}.${maxFiles + 1}`)) fs.unlinkSync(`${path}.${maxFiles + 1}`);
}
