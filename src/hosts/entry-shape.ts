/**
 * The server entries of one location in a parsed config, seen through the host's entry shape: the
 * command line as mcp-tap reads it (`command`, `args`, `env`, `cwd`, `type`, `url`) and where in the
 * text that command line lives. Pure.
 */
import { nodeAt, plainValue, prop, type TNode } from './config-tree.js';
import type { ServersLocation } from './types.js';

/** Where an entry's command line is written. */
export type CommandTarget =
  /** A string under `commandKey` and an optional `args` array, both in `obj`. */
  | { kind: 'keys'; obj: TNode; commandKey: string }
  /** One array: program first, then its arguments (opencode). */
  | { kind: 'array'; arr: TNode };

/** One server entry of a location. */
export interface EntryView {
  name: string;
  /** Path of the entry in the file (for finding the same entry in the backup). */
  path: (string | number)[];
  node: TNode;
  /** The entry in the common shape classifyEntry reads. */
  value: unknown;
  target: CommandTarget;
}

function record(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The entry's value in the common shape, and where its command line lives. */
export function viewEntry(node: TNode, shape: ServersLocation['shape']): { value: unknown; target: CommandTarget } {
  const raw = plainValue(node);
  const e = record(raw);
  switch (shape) {
    case 'zed': {
      const cmd = prop(node, 'command')?.value;
      if (cmd?.type === 'object') {
        const c = record(plainValue(cmd));
        return { value: { ...e, command: c.path, args: c.args, env: c.env ?? e.env }, target: { kind: 'keys', obj: cmd, commandKey: 'path' } };
      }
      // An extension-provided server is started by Zed's extension, not from a command here.
      const value = e.source === 'extension' && e.command === undefined ? { ...e, type: 'extension' } : raw;
      return { value, target: { kind: 'keys', obj: node, commandKey: 'command' } };
    }
    case 'goose': {
      const { cmd, envs, uri, ...rest } = e;
      return { value: { ...rest, command: cmd, env: envs, url: uri ?? rest.url }, target: { kind: 'keys', obj: node, commandKey: 'cmd' } };
    }
    case 'opencode': {
      const arr = prop(node, 'command')?.value;
      const { command, environment, ...rest } = e;
      if (arr?.type === 'array' && Array.isArray(command)) {
        return { value: { ...rest, command: command[0], args: command.slice(1), env: environment }, target: { kind: 'array', arr } };
      }
      return { value: { ...rest, command, env: environment }, target: { kind: 'keys', obj: node, commandKey: 'command' } };
    }
    default:
      return { value: raw, target: { kind: 'keys', obj: node, commandKey: 'command' } };
  }
}

/** Every entry of one location, in source order. */
export function entriesAt(tree: TNode | undefined, location: ServersLocation): EntryView[] {
  const servers = nodeAt(tree, location.serversPath);
  const out: EntryView[] = [];
  if (!servers) return out;
  if (location.list) {
    if (servers.type !== 'array') return out;
    servers.items.forEach((item, i) => {
      const name = prop(item, 'name')?.value.scalar;
      if (item.type !== 'object' || typeof name !== 'string') return;
      out.push({ name, path: [...location.serversPath, i], node: item, ...viewEntry(item, location.shape) });
    });
    return out;
  }
  if (servers.type !== 'object') return out;
  for (const p of servers.props) out.push({ name: p.key, path: [...location.serversPath, p.key], node: p.value, ...viewEntry(p.value, location.shape) });
  return out;
}
