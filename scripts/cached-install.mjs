// A folder of npm packages installed apart from the project's node_modules (`npm install --prefix` into
// .cache/<name>), from a locked manifest in the repository, so a contributor's `npm ci` stays small:
// the real hosts (install-hosts.mjs) and the tools a few suites need (install-test-tools.mjs). Cached: a
// stamp says which manifest and lock the installed copy was made from. Installers that run at once
// (vitest's workers) take turns through a lock directory; the second finds the copy made.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const FILES = ['package.json', 'package-lock.json'];
/** A lock older than this is a dead installer's. */
const STALE_LOCK_MS = 15 * 60_000;

/** The install of `source` (a folder of the repository with package.json and its lock) into `prefix`. */
export function cachedInstall(source, prefix) {
  const stampFile = join(prefix, '.installed');
  const lock = `${prefix}.lock`;
  const rel = source.slice(REPO.length + 1);

  /** What the installed copy must have been made from: the manifest and its lock. */
  const stamp = () => {
    const h = createHash('sha256');
    for (const f of FILES) h.update(readFileSync(join(source, f)));
    return h.digest('hex');
  };

  /** Whether `prefix` holds an install of the current manifest. */
  const installed = () => existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === stamp();

  /** Installs when needed; returns an error message, or null when the packages are there. */
  const install = (log = (m) => process.stderr.write(`${m}\n`)) => {
    if (installed()) return null;
    const err = takeLock(lock);
    if (err !== null) return err;
    try {
      if (installed()) return null; // another installer made it while this one waited
      log(`installing the packages of ${rel}/package.json into ${prefix} (cached after the first run)`);
      rmSync(prefix, { recursive: true, force: true });
      mkdirSync(prefix, { recursive: true });
      for (const f of FILES) copyFileSync(join(source, f), join(prefix, f));
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      const r = spawnSync(npm, ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error', '--engine-strict=false'], {
        stdio: ['ignore', 2, 2], // npm's words go to stderr: a caller's stdout stays its own
        shell: process.platform === 'win32',
      });
      if (r.status !== 0) return `npm install --prefix ${prefix} failed (${r.error?.message ?? `exit ${r.status}`})`;
      writeFileSync(stampFile, `${stamp()}\n`);
      return null;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  };

  return { prefix, stamp, installed, install };
}

/** Waits for the lock directory (mkdir is atomic); returns an error message when it never frees. */
function takeLock(lock) {
  mkdirSync(dirname(lock), { recursive: true });
  const wait = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + STALE_LOCK_MS + 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      return null;
    } catch (err) {
      if (err.code !== 'EEXIST') return `cannot take the install lock ${lock} (${err.code ?? err.message})`;
    }
    let age = 0;
    try {
      age = Date.now() - statSync(lock).mtimeMs;
    } catch {
      continue; // freed meanwhile
    }
    if (age > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
    else if (Date.now() > deadline) return `the install lock ${lock} was never freed`;
    else Atomics.wait(wait, 0, 0, 250);
  }
}

/** Runs `install` as a script's main: exit 1 with the message when it fails. */
export function installMain(name, install) {
  const err = install();
  if (err !== null) {
    process.stderr.write(`${name}: ${err}\n`);
    process.exit(1);
  }
}
