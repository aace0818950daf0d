/**
 * `ui --open` with the token on no command line (every local user can read one: ps, /proc/<pid>/cmdline):
 * the URL goes into a launch file — a page that only redirects to it, mode 0600 in a fresh private
 * directory — and the opener is given that file's URL, as Jupyter does. The page's load then comes from
 * the file:// page, cross-site, which the guard lets through for a page load carrying the token (guard.ts).
 */
import { execa } from 'execa';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Starts `file` with `args` and leaves it running; rejects when it cannot start or fails. */
export type Opener = (file: string, args: readonly string[]) => Promise<void>;

/** A written launch file. */
export interface LaunchFile {
  path: string;
  /** Its file:// URL, what the opener is given. */
  url: string;
  /** Deletes the file and its directory. */
  remove(): Promise<void>;
}

/** The launch file's HTML: it replaces itself with `url` (location.replace, and a meta refresh where scripts do not run). */
export function launchPage(url: string): string {
  const attr = url.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const js = JSON.stringify(url).replace(/</g, '\\u003c');
  return (
    `<!doctype html>\n<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="1;url=${attr}"><title>mcp-tap live</title></head>\n` +
    `<body><script>location.replace(${js});</script><p><a href="${attr}">Open mcp-tap live</a></p></body></html>\n`
  );
}

/**
 * `url` with every character cmd.exe may act on percent-encoded: the launch file's URL reaches `cmd /c
 * start` unquoted (Node quotes an argument only for a space, tab or quote, and pathToFileURL encodes
 * those), so an `&` of the temp path (a user `R&D`) would end the command there and run the rest as one,
 * and `, ; =` split it. A file URL means the same with them encoded; `%` stays (pathToFileURL's own escapes).
 */
export function cmdSafeUrl(url: string): string {
  return url.replace(/[^A-Za-z0-9\-._~/:%]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** The command that opens `target` in the default browser on `platform`. */
export function openCommand(target: string, platform: NodeJS.Platform): { file: string; args: string[] } {
  if (platform === 'darwin') return { file: 'open', args: [target] };
  if (platform === 'win32') return { file: 'cmd', args: ['/c', 'start', '""', cmdSafeUrl(target)] };
  return { file: 'xdg-open', args: [target] };
}

/** Writes the launch file for `url` in a fresh directory (mode 0700, mkdtemp's) under `parent`. */
export async function writeLaunchFile(url: string, parent = tmpdir()): Promise<LaunchFile> {
  const dir = await mkdtemp(join(parent, 'mcp-tap-ui-'));
  const path = join(dir, 'open.html');
  try {
    await writeFile(path, launchPage(url), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return { path, url: pathToFileURL(path).href, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** The opener `ui --open` uses: execa, detached, stdio ignored, not keeping mcp-tap alive. */
export const execaOpener: Opener = async (file, args) => {
  const child = execa(file, args, { stdio: 'ignore', detached: true, windowsHide: true, buffer: false, reject: false });
  child.unref();
  const result = await child;
  if (result.failed) throw new Error(result.shortMessage);
};

export interface OpenOptions {
  opener: Opener;
  warn: (message: string) => void;
  platform?: NodeJS.Platform;
  /** Where the launch file's directory is made (default: the OS temp directory). */
  parent?: string;
}

/**
 * Opens `url` in the default browser through a launch file, without waiting for the opener; a failure is
 * only a warning (the URL is printed anyway). The launch file, for the caller to remove when it stops;
 * null when it could not be written.
 */
export async function openBrowser(url: string, opts: OpenOptions): Promise<LaunchFile | null> {
  let launch: LaunchFile;
  try {
    launch = await writeLaunchFile(url, opts.parent);
  } catch (err) {
    opts.warn(`could not write the page that opens the browser (${(err as Error).message}); open the URL yourself`);
    return null;
  }
  const { file, args } = openCommand(launch.url, opts.platform ?? process.platform);
  void Promise.resolve()
    .then(() => opts.opener(file, args))
    .catch(() => opts.warn(`could not open a browser (${file}); open the URL yourself`));
  return launch;
}
