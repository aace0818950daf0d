/**
 * Stopping a process tree on Windows when `taskkill /T` cannot (access denied, a pid gone, or a
 * taskkill without /T as under Wine): list every process with its parent (wmic, else PowerShell's
 * Get-CimInstance), end the direct child, then each descendant by pid. The parsing and the tree walk are
 * pure; running commands and killing pids are injected edges.
 */

/** One row of the process table. */
export interface ProcessRow {
  pid: number;
  ppid: number;
}

/** A command's outcome as the tree stop needs it. */
export interface CommandResult {
  exitCode: number | undefined;
  stdout: Buffer;
  /** Why it failed, in a few words (spawn error, timeout, stderr), when it did. */
  failure?: string;
}

export interface WindowsTreeEdges {
  run: (file: string, args: string[]) => Promise<CommandResult>;
  /** Terminates the direct child (ChildProcess.kill: TerminateProcess on Windows). */
  killChild: () => void;
  /** Terminates one process by pid; false when it could not (already gone, no access). */
  killPid: (pid: number) => boolean;
}

/** How a table is listed: wmic first (fast; Windows ≤ 11 23H2 and Wine), then PowerShell (every Windows). */
export const LISTERS: { name: string; file: string; args: string[] }[] = [
  { name: 'wmic', file: 'wmic', args: ['process', 'get', 'ParentProcessId,ProcessId'] },
  {
    name: 'PowerShell',
    file: 'powershell.exe',
    args: ['-NoProfile', '-NonInteractive', '-Command', '"ParentProcessId ProcessId"; Get-CimInstance Win32_Process | ForEach-Object { "$($_.ParentProcessId) $($_.ProcessId)" }'],
  },
];

/** Command output as text: wmic writes UTF-16LE (with or without a byte order mark) when redirected. */
export function decodeCommandOutput(buf: Buffer): string {
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return buf.subarray(2).toString('utf16le');
  let zeros = 0;
  for (let i = 1; i < Math.min(buf.length, 200); i += 2) if (buf[i] === 0) zeros++;
  return zeros > 0 && zeros >= Math.min(buf.length, 200) / 4 ? buf.toString('utf16le') : buf.toString('utf8');
}

/**
 * The rows of a two-column table whose header names ParentProcessId and ProcessId in either order (wmic
 * orders its columns alphabetically and may write the names with no space between them); lines that are
 * not two numbers are skipped; null when there is no such header.
 */
export function parseProcessTable(text: string): ProcessRow[] | null {
  const lines = text.split(/\r?\n|\r/).map((l) => l.trim()).filter((l) => l !== '');
  let parentFirst: boolean | undefined;
  let headerAt = -1;
  for (let i = 0; i < lines.length && headerAt < 0; i++) {
    const lower = lines[i]!.toLowerCase();
    const parent = lower.indexOf('parentprocessid');
    if (parent < 0) continue;
    const own = lower.replace('parentprocessid', ' '.repeat('parentprocessid'.length)).indexOf('processid');
    if (own < 0) continue;
    headerAt = i;
    parentFirst = parent < own;
  }
  if (headerAt < 0) return null;
  const rows: ProcessRow[] = [];
  for (const line of lines.slice(headerAt + 1)) {
    const cells = line.split(/\s+/);
    if (cells.length !== 2 || !cells.every((c) => /^\d+$/.test(c))) continue;
    const [a, b] = cells.map(Number) as [number, number];
    const row = parentFirst ? { pid: b, ppid: a } : { pid: a, ppid: b };
    if (row.pid > 0) rows.push(row);
  }
  return rows;
}

/** Every process below `root`, parents before their children (each pid once, cycles from pid reuse cut). */
export function descendantsOf(root: number, rows: readonly ProcessRow[]): number[] {
  const children = new Map<number, number[]>();
  for (const r of rows) {
    if (r.pid === r.ppid) continue;
    const list = children.get(r.ppid) ?? [];
    list.push(r.pid);
    children.set(r.ppid, list);
  }
  const out: number[] = [];
  const seen = new Set<number>([root]);
  const queue = [root];
  while (queue.length > 0) {
    for (const pid of children.get(queue.shift()!) ?? []) {
      if (seen.has(pid)) continue;
      seen.add(pid);
      out.push(pid);
      queue.push(pid);
    }
  }
  return out;
}

/** The process table from the first lister that gives one, with its name. */
async function listProcesses(run: WindowsTreeEdges['run']): Promise<{ rows: ProcessRow[]; by: string } | { failures: string[] }> {
  const failures: string[] = [];
  for (const l of LISTERS) {
    const r = await run(l.file, l.args);
    const rows = r.exitCode === 0 ? parseProcessTable(decodeCommandOutput(r.stdout)) : null;
    if (rows !== null && rows.length > 0) return { rows, by: l.name };
    failures.push(`${l.name}: ${r.failure ?? (r.exitCode === 0 ? 'no process table in its output' : `exit ${r.exitCode}`)}`);
  }
  return { failures };
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/**
 * Ends the tree rooted at `root`: `taskkill /PID root /T /F`, and when that fails the fallback above.
 * Resolves to null when taskkill did it, else to a sentence saying what was done instead.
 */
export async function stopWindowsTree(root: number, edges: WindowsTreeEdges): Promise<string | null> {
  const tk = await edges.run('taskkill', ['/PID', String(root), '/T', '/F']);
  if (tk.exitCode === 0) return null;
  const why = tk.failure ?? `exit ${tk.exitCode}`;
  // listed before the root goes: the rows still name it as the parent either way, but its pid stays ours
  const table = await listProcesses(edges.run);
  edges.killChild();
  if ('failures' in table) {
    return `taskkill /T failed (${why}) and the processes the server started could not be listed (${table.failures.join('; ')}); only the server (pid ${root}) was ended, what it started may still run`;
  }
  const below = descendantsOf(root, table.rows);
  const stuck = below.filter((pid) => !edges.killPid(pid));
  const ended = below.filter((pid) => !stuck.includes(pid));
  const tail = stuck.length > 0 ? `; ${plural(stuck.length, 'pid', 'pids')} could not be ended (${stuck.join(', ')})` : '';
  return `taskkill /T failed (${why}); ended the server (pid ${root}) and ${plural(ended.length, 'process', 'processes')} it started${ended.length > 0 ? ` (pids ${ended.join(', ')})` : ''}, found with ${table.by}, one by one${tail}`;
}
