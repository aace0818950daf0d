/**
 * `ui --open` with the token on no command line (every local user can read one: ps, /proc/<pid>/cmdline):
 * the URL goes into a launch file — a page that only redirects to it, mode 0600 — and the opener is given
 * that file's URL, as Jupyter does. The page's load then comes from the file:// page, cross-site, which
 * the guard lets through for a page load carrying the token (guard.ts); the first load of the page that
 * passes the guard, that one or any other, removes the file. One left by a `ui` killed before it could
 * remove it goes at the next `ui` start (launch-sweep.ts).
 *
 * Where the file goes: on Linux (not WSL) the user's download directory, since snap browsers (Ubuntu's
 * Firefox and Chromium) have a /tmp of their own and cannot read hidden directories of the home, and
 * Flatpak browsers see only the download directory: a file anywhere else is "not found" while xdg-open
 * succeeds. Elsewhere, or without a download directory, a fresh private directory of the OS temp dir.
 */
import { execa } from 'execa';
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LAUNCH_PAGE, launchDirPrefix, launchFileName, type LaunchKind } from './launch-name.js';

/** Starts `file` with `args` and leaves it running; rejects when it cannot start or fails. */
export type Opener = (file: string, args: readonly string[]) => Promise<void>;

/** A written launch file. */
export interface LaunchFile {
  path: string;
  /** Its file:// URL, what the opener is given. */
  url: string;
  /** Deletes the file (and its directory, in the temp dir); safe to call again, never rejects. */
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

/** What the choice of the launch file's directory looks at: the real machine, or a fake home in tests. */
export interface LaunchHost {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
  /** The OS temp directory. */
  tmp: string;
  /** A file's text, or null when it cannot be read. */
  readText(path: string): string | null;
  isDir(path: string): boolean;
}

/** This machine. */
export function realLaunchHost(): LaunchHost {
  return {
    platform: process.platform,
    env: process.env,
    home: homedir(),
    tmp: tmpdir(),
    readText: (path) => {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return null;
      }
    },
    isDir: (path) => {
      try {
        return statSync(path).isDirectory();
      } catch {
        return false;
      }
    },
  };
}

/** Whether this Linux is WSL, whose browsers are Windows programs (the temp dir suits them). */
export function isWsl(host: Pick<LaunchHost, 'env' | 'readText'>): boolean {
  return Boolean(host.env['WSL_DISTRO_NAME']) || /microsoft/i.test(host.readText('/proc/version') ?? '');
}

/** XDG_DOWNLOAD_DIR of a user-dirs.dirs text, "$HOME" expanded; null when unset or not absolute. */
export function xdgDownloadDir(text: string, home: string): string | null {
  let value: string | null = null;
  for (const line of text.split('\n')) {
    const m = /^\s*XDG_DOWNLOAD_DIR\s*=\s*(?:"((?:[^"\\]|\\.)*)"|(\S*))\s*$/.exec(line);
    if (m) value = (m[1] ?? m[2] ?? '').replace(/\\(.)/g, '$1');
  }
  if (value === null) return null;
  const dir = value.replace(/^\$(?:HOME\b|\{HOME\})/, home);
  return dir !== '' && isAbsolute(dir) ? dir : null;
}

/** The user's download directory when it exists: user-dirs.dirs' XDG_DOWNLOAD_DIR, else ~/Downloads. */
export function downloadDir(host: LaunchHost): string | null {
  const configHome = host.env['XDG_CONFIG_HOME'];
  const config = configHome && isAbsolute(configHome) ? configHome : join(host.home, '.config');
  const text = host.readText(join(config, 'user-dirs.dirs'));
  const named = text === null ? null : xdgDownloadDir(text, host.home);
  if (named !== null && host.isDir(named)) return named;
  const plain = join(host.home, 'Downloads');
  return host.isDir(plain) ? plain : null;
}

/** Where the launch file goes: the download directory on Linux but WSL, when there is one; else the temp dir. */
export function launchDir(host: LaunchHost): { kind: LaunchKind; dir: string } {
  if (host.platform === 'linux' && !isWsl(host)) {
    const dir = downloadDir(host);
    if (dir !== null) return { kind: 'downloads', dir };
  }
  return { kind: 'temp', dir: host.tmp };
}

/**
 * Writes the launch file for `url`: in the download directory a file `mcp-tap-ui-<pid>-<random>.html`; in
 * the temp dir `open.html` in a fresh directory `mcp-tap-ui-<pid>-<random>` (mode 0700, mkdtemp's); `pid`
 * this process's, for a later `ui` to sweep the file if this one is killed (launch-sweep.ts). Always mode
 * 0600, created anew (wx: O_EXCL, so no existing file or symlink is followed).
 */
export async function writeLaunchFile(url: string, where: { kind: LaunchKind; dir: string }, pid = process.pid): Promise<LaunchFile> {
  if (where.kind === 'downloads') {
    const path = join(where.dir, launchFileName(pid, randomBytes(12).toString('hex')));
    await writeFile(path, launchPage(url), { mode: 0o600, flag: 'wx' });
    return { path, url: pathToFileURL(path).href, remove: () => rm(path, { force: true }).catch(() => {}) };
  }
  const dir = await mkdtemp(join(where.dir, launchDirPrefix(pid)));
  const path = join(dir, LAUNCH_PAGE);
  try {
    await writeFile(path, launchPage(url), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return { path, url: pathToFileURL(path).href, remove: () => rm(dir, { recursive: true, force: true }).catch(() => {}) };
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
  /** The machine, for where the launch file goes and which opener starts it (default: this one). */
  host?: LaunchHost;
  /** Writes the launch file (default writeLaunchFile); tests hold it back. */
  write?: (url: string, where: { kind: LaunchKind; dir: string }) => Promise<LaunchFile>;
}

/**
 * Opens `url` in the default browser through a launch file, without waiting for the opener, and says
 * which file (never the URL) on stderr; a failure is only a warning (the URL is printed anyway). The
 * launch file, for the caller to remove once its page loads or when it stops; null when it could not be
 * written.
 */
export async function openBrowser(url: string, opts: OpenOptions): Promise<LaunchFile | null> {
  const host = opts.host ?? realLaunchHost();
  let launch: LaunchFile;
  try {
    launch = await (opts.write ?? writeLaunchFile)(url, launchDir(host));
  } catch (err) {
    opts.warn(`could not write the page that opens the browser (${(err as Error).message}); open the URL yourself`);
    return null;
  }
  const { file, args } = openCommand(launch.url, host.platform);
  void Promise.resolve()
    .then(() => opts.opener(file, args))
    .catch(() => opts.warn(`could not open a browser (${file}); open the URL yourself`));
  opts.warn(`opening the browser through ${launch.path} (removed once the page loads); if it says the file is not found, open the URL above`);
  return launch;
}
