/**
 * mkdir -p with mode 0700 on each directory it creates. Not fs.mkdir({recursive}): on Node 20 that never
 * returns for some paths (e.g. under /proc), which would hang the proxy before it relays a byte.
 */
import * as fs from 'node:fs';
import { dirname } from 'node:path';

/** Creates `dir` and missing parents (each 0700, whatever the umask); throws the first fs error. */
export function makeDirSync(dir: string): void {
  const missing: string[] = [];
  let cur = dir;
  for (;;) {
    try {
      const st = fs.statSync(cur);
      if (!st.isDirectory()) throw Object.assign(new Error(`${cur} is not a directory`), { code: 'ENOTDIR' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    missing.push(cur);
    const parent = dirname(cur);
    if (parent === cur) break;
    cur = parent;
  }
  for (const d of missing.reverse()) {
    try {
      fs.mkdirSync(d, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    fs.chmodSync(d, 0o700);
  }
}
