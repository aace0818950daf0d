#!/usr/bin/env node
// Installs the real MCP hosts the host tests drive (test/hosts/package.json, locked) into .cache/hosts,
// apart from the project's own node_modules so a contributor's `npm ci` stays small. Cached: skipped when
// the installed copy was made from the same manifest and lock. Run by .ci/run and, when missing, by the
// host tests (test/helpers/real-hosts.ts). Exits non-zero when it cannot install.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = join(REPO, 'test', 'hosts');
export const HOSTS_PREFIX = join(REPO, '.cache', 'hosts');
const STAMP = join(HOSTS_PREFIX, '.installed');
const FILES = ['package.json', 'package-lock.json'];

/** What the installed copy must have been made from: the manifest and its lock. */
export function hostsStamp() {
  const h = createHash('sha256');
  for (const f of FILES) h.update(readFileSync(join(SOURCE, f)));
  return h.digest('hex');
}

/** Whether .cache/hosts holds an install of the current manifest. */
export function hostsInstalled() {
  return existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === hostsStamp();
}

/** Installs when needed; returns an error message, or null when the hosts are there. */
export function installHosts(log = (m) => process.stderr.write(`${m}\n`)) {
  if (hostsInstalled()) return null;
  log(`installing the real hosts of test/hosts/package.json into ${HOSTS_PREFIX} (cached after the first run)`);
  rmSync(HOSTS_PREFIX, { recursive: true, force: true });
  mkdirSync(HOSTS_PREFIX, { recursive: true });
  for (const f of FILES) copyFileSync(join(SOURCE, f), join(HOSTS_PREFIX, f));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['install', '--prefix', HOSTS_PREFIX, '--no-audit', '--no-fund', '--loglevel=error', '--engine-strict=false'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    shell: process.platform === 'win32',
  });
  if (r.status !== 0) return `npm install --prefix ${HOSTS_PREFIX} failed (${r.error?.message ?? `exit ${r.status}`})`;
  writeFileSync(STAMP, `${hostsStamp()}\n`);
  return null;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const err = installHosts();
  if (err !== null) {
    process.stderr.write(`install-hosts: ${err}\n`);
    process.exit(1);
  }
}
