/**
 * What kind of server entry a config holds: a stdio server mcp-tap can wrap, one it already wraps,
 * mcp-tap's own MCP server (never wrapped), a remote (HTTP/SSE) server it cannot sit in front of, or
 * something malformed. Pure, on parsed values.
 */
import { mcpServerArgs, tapOptionsStart } from '../platform/tap-invocation.js';

/** The original command line of a stdio server. */
export interface CommandLine {
  command: string;
  args: string[];
}

export type EntryKind =
  | { kind: 'stdio'; command: string; args: string[] | undefined }
  | {
      kind: 'wrapped';
      /** The server command mcp-tap runs, when it can be told from the arguments. */
      original: CommandLine | undefined;
      /** Index in args of the server command (everything before it belongs to mcp-tap). */
      originalIndex: number;
    }
  /** `mcp-tap mcp`: wrapping it would log the agent reading the logs into the logs it reads. */
  | { kind: 'self'; command: string; args: string[] }
  | { kind: 'remote'; reason: string }
  | { kind: 'invalid'; reason: string };

const REMOTE_TYPES = new Set(['http', 'sse', 'streamable-http', 'streamable_http', 'streamablehttp', 'remote', 'ws', 'websocket']);
/** Types that mean "a process started from command and args" (Copilot CLI and opencode say `local`). */
const STDIO_TYPES = new Set(['stdio', 'local']);
/** Entries a host runs itself, with no command to put mcp-tap in front of (Goose built-ins, Zed extensions). */
const BUILTIN_TYPES = new Set(['builtin', 'platform', 'frontend', 'inline_python', 'extension']);

/** mcp-tap proxy options that take a value (so the server command is not mistaken for one). */
const VALUE_OPTIONS = new Set(['--name', '--log', '--max-log-bytes', '--max-log-size', '--max-log-files', '--grace']);

/** Index of the server command among a wrapped entry's args (after `--`, or after mcp-tap's options). */
export function serverCommandIndex(args: readonly string[], start: number): number | undefined {
  for (let i = start; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return i + 1 < args.length ? i + 1 : undefined;
    if (VALUE_OPTIONS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    return i;
  }
  return undefined;
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/** Classifies one entry of a host's servers object. */
export function classifyEntry(entry: unknown): EntryKind {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return { kind: 'invalid', reason: 'not an object' };
  const e = entry as Record<string, unknown>;
  const type = typeof e.type === 'string' ? e.type : undefined;
  const url = e.url ?? e.serverUrl ?? e.httpUrl;
  if (typeof url === 'string' || (type !== undefined && REMOTE_TYPES.has(type.toLowerCase()))) {
    return { kind: 'remote', reason: `${type ?? 'HTTP/SSE'} server (${String(url ?? 'url')}): mcp-tap relays stdio only` };
  }
  if (type !== undefined && BUILTIN_TYPES.has(type)) return { kind: 'remote', reason: `${type} entry: the host runs it itself, there is no command to wrap` };
  if (type !== undefined && !STDIO_TYPES.has(type)) return { kind: 'invalid', reason: `type "${type}" is not stdio` };
  if (typeof e.command !== 'string' || e.command === '') return { kind: 'invalid', reason: 'no command' };
  if (e.args !== undefined && !isStringArray(e.args)) return { kind: 'invalid', reason: 'args is not a list of strings' };
  const args = e.args as string[] | undefined;
  if (mcpServerArgs(e.command, args ?? []) !== undefined) return { kind: 'self', command: e.command, args: args ?? [] };
  const start = tapOptionsStart(e.command, args ?? []);
  if (start !== undefined) {
    const idx = serverCommandIndex(args ?? [], start);
    return {
      kind: 'wrapped',
      original: idx === undefined ? undefined : { command: args![idx]!, args: args!.slice(idx + 1) },
      originalIndex: idx ?? -1,
    };
  }
  return { kind: 'stdio', command: e.command, args };
}

/** A log-file-safe form of an entry name for `--name` (the name itself when it is already safe). */
export function tapName(entryName: string): string {
  const safe = entryName.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '').slice(0, 80);
  return safe || 'server';
}
