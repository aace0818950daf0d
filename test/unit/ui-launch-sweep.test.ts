/**
 * Launch files left by a `ui` killed before it could remove its own: their names carry the writer's pid,
 * and a `ui` start removes those of mcp-tap's own naming whose writer is gone and that this user owns —
 * in the download directory a regular file, in the temp dir a directory holding nothing but open.html.
 * Everything else stays: other names (the naming before pids too), symlinks, other users' entries, a
 * running writer's, the sweeper's own, a directory with more in it. In memory, then on the real file
 * system with a pid that is gone (a child that exited, or one that exited unreaped: a zombie) and one
 * that runs.
 * The real CLI killed with SIGKILL and started again is in test/e2e/ui-open.test.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LAUNCH_PAGE, launchDirPrefix, launchFileName, launchOwner } from '../../src/ui/launch-name.js';
import { realSweepEdges, sweepLaunchFiles, type EntryInfo, type SweepEdges } from '../../src/ui/launch-sweep.js';
import { writeLaunchFile } from '../../src/ui/open-browser.js';
import { tempDir } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';

const HEX = '0123456789abcdef01234567';
const ME = { pid: 100, uid: 1000 };
const RUNNING = new Set([100, 200]);

/** A file system in memory: path → entry; what `alive` was asked. */
function memFs(entries: Record<string, EntryInfo>, opts: { failRemoving?: string } = {}): SweepEdges & { entries: Record<string, EntryInfo>; asked: number[] } {
  const asked: number[] = [];
  return {
    entries,
    asked,
    list: (dir) => Object.keys(entries).filter((p) => dirname(p) === dir).map((p) => p.slice(dir.length + 1)),
    entry: (path) => entries[path] ?? null,
    alive: (pid) => (asked.push(pid), RUNNING.has(pid)),
    removeFile: (path) => {
      if (path === opts.failRemoving) throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
      if (entries[path]?.type !== 'file') throw new Error(`not a file: ${path}`);
      delete entries[path];
    },
    removeDir: (path) => {
      if (entries[path]?.type !== 'dir' || Object.keys(entries).some((p) => dirname(p) === path)) throw new Error(`not an empty directory: ${path}`);
      delete entries[path];
    },
  };
}

const file = (uid = 1000): EntryInfo => ({ type: 'file', uid });
const dir = (uid = 1000): EntryInfo => ({ type: 'dir', uid });
const link = (uid = 1000): EntryInfo => ({ type: 'other', uid });

describe('launch file names', () => {
  it('carry the writer pid, and only names of that form give one', () => {
    expect(launchFileName(4242, HEX)).toBe(`mcp-tap-ui-4242-${HEX}.html`);
    expect(launchOwner(launchFileName(4242, HEX), 'downloads')).toBe(4242);
    expect(launchOwner(`${launchDirPrefix(4242)}Ab12Cd`, 'temp')).toBe(4242);
    for (const name of [`mcp-tap-ui-${HEX}.html`, `mcp-tap-ui-0-${HEX}.html`, `mcp-tap-ui-4242-${HEX}.html.part`, `mcp-tap-ui-4242-${HEX.slice(1)}.html`, `x-mcp-tap-ui-4242-${HEX}.html`, 'report.html', `mcp-tap-ui-4242-Ab12Cd`]) {
      expect(launchOwner(name, 'downloads'), name).toBeNull();
    }
    for (const name of ['mcp-tap-ui-Ab12Cd', 'mcp-tap-ui-open-Ab12Cd', 'mcp-tap-ui-4242-Ab12C', 'mcp-tap-ui-4242-Ab12Cd.html', launchFileName(4242, HEX)]) {
      expect(launchOwner(name, 'temp'), name).toBeNull();
    }
  });
});

describe('the sweep, in memory', () => {
  it('in the download directory: removes the regular files of gone writers that this user owns, nothing else', () => {
    const fs = memFs({
      [`/dl/${launchFileName(300, HEX)}`]: file(),
      [`/dl/${launchFileName(310, HEX)}`]: file(),
      [`/dl/${launchFileName(200, HEX)}`]: file(), // running
      [`/dl/${launchFileName(100, HEX)}`]: file(), // the sweeper's own
      [`/dl/${launchFileName(301, HEX)}`]: file(0), // another user's
      [`/dl/${launchFileName(302, HEX)}`]: link(), // a symlink
      [`/dl/${launchFileName(303, HEX)}`]: dir(),
      [`/dl/mcp-tap-ui-${HEX}.html`]: file(), // the naming before pids
      '/dl/report.html': file(),
    });
    const kept = Object.keys(fs.entries).filter((p) => !/-(300|310)-/.test(p));
    expect(sweepLaunchFiles({ kind: 'downloads', dir: '/dl' }, fs, ME).sort()).toEqual([`/dl/${launchFileName(300, HEX)}`, `/dl/${launchFileName(310, HEX)}`]);
    expect(Object.keys(fs.entries)).toEqual(kept);
    // the process table is asked only about names of mcp-tap's naming, never about the sweeper itself
    expect(fs.asked.sort()).toEqual([200, 300, 301, 302, 303, 310]);
  });

  it('in the temp dir: removes directories of gone writers holding nothing but the page (or nothing yet)', () => {
    const d = (pid: number): string => `/tmp/${launchDirPrefix(pid)}Ab12Cd`;
    const fs = memFs({
      [d(300)]: dir(),
      [`${d(300)}/${LAUNCH_PAGE}`]: file(),
      [d(306)]: dir(), // killed between mkdtemp and the write
      [d(307)]: dir(), // more in it
      [`${d(307)}/${LAUNCH_PAGE}`]: file(),
      [`${d(307)}/notes.txt`]: file(),
      [d(308)]: dir(), // its page a symlink
      [`${d(308)}/${LAUNCH_PAGE}`]: link(),
      [d(309)]: file(), // not a directory
      [d(311)]: dir(0), // another user's
      [d(200)]: dir(), // running
      [`${d(200)}/${LAUNCH_PAGE}`]: file(),
      '/tmp/mcp-tap-ui-Ab12Cd': dir(), // the naming before pids
      '/tmp/mcp-tap-ui-open-Ab12Cd': dir(),
    });
    expect(sweepLaunchFiles({ kind: 'temp', dir: '/tmp' }, fs, ME).sort()).toEqual([d(300), d(306)]);
    expect(Object.keys(fs.entries).filter((p) => p.includes('-300-') || p.includes('-306-'))).toEqual([]);
    expect(Object.keys(fs.entries)).toHaveLength(11);
  });

  it('goes on past an entry it cannot remove, and never throws', () => {
    const fs = memFs({ [`/dl/${launchFileName(300, HEX)}`]: file(), [`/dl/${launchFileName(310, HEX)}`]: file() }, { failRemoving: `/dl/${launchFileName(300, HEX)}` });
    expect(sweepLaunchFiles({ kind: 'downloads', dir: '/dl' }, fs, ME)).toEqual([`/dl/${launchFileName(310, HEX)}`]);
    expect(sweepLaunchFiles({ kind: 'downloads', dir: '/missing' }, { ...fs, list: () => [] }, ME)).toEqual([]);
  });

  it('without user ids (Windows) does not look at owners', () => {
    const fs = memFs({ [`/dl/${launchFileName(300, HEX)}`]: file(0) });
    expect(sweepLaunchFiles({ kind: 'downloads', dir: '/dl' }, fs, { pid: 100, uid: undefined })).toHaveLength(1);
  });
});

describe('the sweep, on this machine', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    tmp = tempDir('mcp-tap-sweep-');
  });
  afterEach(() => tmp.cleanup());

  /** The pid of a child that has exited (and been reaped). */
  const gonePid = (): number => spawnSync(process.execPath, ['-e', '0']).pid!;

  it.skipIf(process.platform !== 'linux')('takes a writer that exited but was not reaped yet (a zombie) for gone', async () => {
    // a child that exits a second later, once its shell has become `sleep`, which never reaps it
    const parent = spawn('/bin/sh', ['-c', 'sleep 1 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      let out = '';
      parent.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
      const zombie = Number(await waitFor(() => /^(\d+)\n/.exec(out)?.[1], 5000, 'the background pid'));
      await waitFor(() => / Z /.test(readFileSync(`/proc/${zombie}/stat`, 'utf8').replace(/^.*\)/, ')')), 5000, `${zombie} to be a zombie`);
      const dl = join(tmp.dir, 'Downloads');
      mkdirSync(dl);
      const stale = await writeLaunchFile('http://127.0.0.1:1/?token=z', { kind: 'downloads', dir: dl }, zombie);
      expect(realSweepEdges().alive(zombie)).toBe(false);
      expect(sweepLaunchFiles({ kind: 'downloads', dir: dl }, realSweepEdges(), { pid: process.pid, uid: process.getuid?.() })).toEqual([stale.path]);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it.skipIf(process.platform === 'win32')('removes the launch files of a writer that exited, in both places, and keeps a running one\'s, a symlink and what it points to', async () => {
    const gone = gonePid();
    const dl = join(tmp.dir, 'Downloads');
    const temp = join(tmp.dir, 'tmp');
    mkdirSync(dl);
    mkdirSync(temp);
    const stale = await writeLaunchFile('http://127.0.0.1:1/?token=x', { kind: 'downloads', dir: dl }, gone);
    const staleDir = await writeLaunchFile('http://127.0.0.1:1/?token=x', { kind: 'temp', dir: temp }, gone);
    const running = await writeLaunchFile('http://127.0.0.1:1/?token=y', { kind: 'downloads', dir: dl }, process.ppid);
    const target = join(tmp.dir, 'target.html');
    writeFileSync(target, 'keep me');
    symlinkSync(target, join(dl, launchFileName(gone, 'f'.repeat(24))));
    const me = { pid: process.pid, uid: process.getuid?.() };
    expect(sweepLaunchFiles({ kind: 'downloads', dir: dl }, realSweepEdges(), me)).toEqual([stale.path]);
    expect(sweepLaunchFiles({ kind: 'temp', dir: temp }, realSweepEdges(), me)).toEqual([dirname(staleDir.path)]);
    expect(readdirSync(dl).sort()).toEqual([launchFileName(gone, 'f'.repeat(24)), running.path.slice(dl.length + 1)].sort());
    expect(readdirSync(temp)).toEqual([]);
    expect(existsSync(target)).toBe(true);
  });
});
