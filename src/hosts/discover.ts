/** Finds the config files that exist for the chosen hosts (or the one named with --config) and reads them. */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { homeDirFor } from '../platform/home.js';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { InputError, UsageError } from '../errors.js';
import { readConfigText } from './config-io.js';
import { plainValue } from './config-tree.js';
import { parseConfig } from './parse-config.js';
import { hostDirLocations } from './host-paths.js';
import { configFileLocations, hostLocations } from './locations.js';
import { findGitRoot } from './project-dirs.js';
import { HOST_IDS, type HostEnv, type HostId, type ServersLocation } from './types.js';

/** A config file that exists, its text, and the server objects to look at inside it. */
export interface ConfigFile {
  file: string;
  text: string;
  locations: ServersLocation[];
}

/** The HostEnv of this process; `project` overrides the current directory for project-level configs. */
export function processHostEnv(project?: string): HostEnv {
  const cwd = resolve(project ?? process.cwd());
  return {
    platform: process.platform,
    home: homeDirFor(process.platform, process.env, homedir()),
    cwd,
    env: process.env,
    gitRoot: findGitRoot(cwd, process.platform, existsSync),
  };
}

/** `--host` value → host ids (default and `all`: every host). */
export function parseHosts(value: string | undefined): HostId[] {
  if (value === undefined || value === 'all') return [...HOST_IDS];
  const out: HostId[] = [];
  for (const part of value.split(',').map((s) => s.trim()).filter(Boolean)) {
    if (part === 'all') return [...HOST_IDS];
    if (!(HOST_IDS as readonly string[]).includes(part)) {
      throw new UsageError(`unknown host "${part}" (one of: ${HOST_IDS.join(', ')}, all)`);
    }
    if (!out.includes(part as HostId)) out.push(part as HostId);
  }
  if (out.length === 0) throw new UsageError('--host needs a value');
  return out;
}

/** Config files to work on, plus every path that was looked at (for "nothing found" messages). */
export async function discoverConfigs(
  opts: { host?: string; config?: string },
  h: HostEnv,
  read: (file: string) => Promise<string | undefined> = readConfigText,
  list: (dir: string) => Promise<string[]> = listDir,
): Promise<{ found: ConfigFile[]; looked: string[] }> {
  if (opts.config !== undefined) {
    const file = resolve(h.cwd, opts.config);
    const text = await read(file);
    if (text === undefined) throw new InputError(`no such config file: ${file}`);
    const host = opts.host === undefined || opts.host === 'all' ? undefined : parseHosts(opts.host);
    if (host && host.length > 1) throw new UsageError('--config goes with at most one --host');
    const tree = parseConfig(text, file);
    const root = tree ? plainValue(tree) : undefined;
    return { found: [{ file, text, locations: configFileLocations(file, root, host?.[0], h) }], looked: [file] };
  }
  const byFile = new Map<string, ConfigFile>();
  const looked: string[] = [];
  for (const host of parseHosts(opts.host)) {
    const locations = hostLocations(host, h);
    for (const d of hostDirLocations(host, h)) {
      looked.push(join(d.dir, `*{${d.extensions.join(',')}}`));
      const names = (await list(d.dir)).filter((n) => d.extensions.some((x) => n.toLowerCase().endsWith(x))).sort();
      for (const n of names) locations.push(d.locate(join(d.dir, n)));
    }
    for (const loc of locations) {
      if (!looked.includes(loc.file)) looked.push(loc.file);
      let cf = byFile.get(loc.file);
      if (!cf) {
        const text = await read(loc.file);
        if (text === undefined) continue;
        cf = { file: loc.file, text, locations: [] };
        byFile.set(loc.file, cf);
      }
      const key = JSON.stringify(loc.serversPath);
      const same = cf.locations.find((l) => JSON.stringify(l.serversPath) === key);
      // one file several hosts read (.mcp.json): one location, labelled with each of them
      if (!same) cf.locations.push({ ...loc });
      else if (loc.host !== 'custom' && same.host !== loc.host && !same.readBy?.includes(loc.host)) same.readBy = [...(same.readBy ?? []), loc.host];
    }
  }
  return { found: [...byFile.values()], looked };
}

/** The names in a directory, or none when it does not exist or cannot be read. */
async function listDir(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}
