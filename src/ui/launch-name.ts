/**
 * The names of `ui --open`'s launch files. They carry the pid of the `ui` that wrote them, so that a
 * later `ui` can tell a file whose writer is gone (launch-sweep.ts) from everything else. Pure.
 */

/** Where launch files go: a file of the download directory, or a private directory of the temp dir. */
export type LaunchKind = 'downloads' | 'temp';

/** The page inside a launch directory of the temp dir. */
export const LAUNCH_PAGE = 'open.html';

/** In the download directory: `mcp-tap-ui-<pid>-<random>.html` (`random`: 24 hex digits). */
export function launchFileName(pid: number, random: string): string {
  return `mcp-tap-ui-${pid}-${random}.html`;
}

/** In the temp dir: the prefix of the launch directory, to which mkdtemp appends 6 letters or digits. */
export function launchDirPrefix(pid: number): string {
  return `mcp-tap-ui-${pid}-`;
}

const FILE = /^mcp-tap-ui-([1-9][0-9]{0,9})-[0-9a-f]{24}\.html$/;
const DIR = /^mcp-tap-ui-([1-9][0-9]{0,9})-[A-Za-z0-9]{6}$/;

/** The pid in a name of mcp-tap's own naming for `kind` (a launch file, or a launch directory); null for any other name. */
export function launchOwner(name: string, kind: LaunchKind): number | null {
  const m = (kind === 'downloads' ? FILE : DIR).exec(name);
  return m ? Number(m[1]) : null;
}
