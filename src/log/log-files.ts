/** Finding logs on disk: the `*.jsonrpc.log` files of a directory and the latest one. */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../errors.js';
import { defaultLogDir } from './log-path.js';

/** A log file in a directory, for `ls` and for picking the default log. */
export interface LogFileInfo {
  path: string;
  mtimeMs: number;
  size: number;
}

/** The `*.jsonrpc.log` files in `dir`, most recently modified first (rotated copies `.1`, `.2` are left out). */
export async function listLogs(dir: string = defaultLogDir()): Promise<LogFileInfo[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const out: LogFileInfo[] = [];
  for (const name of names) {
    if (!name.endsWith('.jsonrpc.log')) continue;
    const path = join(dir, name);
    try {
      const st = await stat(path);
      if (st.isFile()) out.push({ path, mtimeMs: st.mtimeMs, size: st.size });
    } catch {
      // removed meanwhile
    }
  }
  return out.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
}

/** The most recently written log in `dir` (default: the default log directory): what readers use without a file argument. */
export async function findLatestLog(dir: string = defaultLogDir()): Promise<string> {
  const [latest] = await listLogs(dir);
  if (!latest) throw new InputError(`no logs in ${dir}; run mcp-tap -- <server> first`);
  return latest.path;
}
