#!/usr/bin/env node
// Installs the real MCP hosts the host tests drive (test/hosts/package.json, locked) into .cache/hosts,
// apart from the project's own node_modules so a contributor's `npm ci` stays small (cached-install.mjs).
// Run by .ci/run and, when missing, by the host tests (test/helpers/real-hosts-setup.ts). Exits non-zero
// when it cannot install.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedInstall, installMain, REPO } from './cached-install.mjs';

const hosts = cachedInstall(join(REPO, 'test', 'hosts'), join(REPO, '.cache', 'hosts'));

export const HOSTS_PREFIX = hosts.prefix;
export const hostsInstalled = hosts.installed;
/** Installs when needed; returns an error message, or null when the hosts are there. */
export const installHosts = hosts.install;

if (process.argv[1] === fileURLToPath(import.meta.url)) installMain('install-hosts', installHosts);
