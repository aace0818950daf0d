/**
 * Whole-file wrap and unwrap: which entries change, why others are skipped, and the new text. Pure:
 * text in, text out, so the I/O edge (config-io.ts) only reads, backs up and writes. Every edited file
 * is read back before it is returned: each changed entry must read as intended and every other entry
 * exactly as before, or nothing is written.
 */
import { applyEdits } from 'jsonc-parser';
import { InputError } from '../errors.js';
import { formatOf, type ConfigFormat, type TNode } from './config-tree.js';
import { classifyEntry, tapName, type EntryKind } from './entry-kind.js';
import { detectEol, editable, unwrapEdits, wrapEdits } from './entry-edits.js';
import { entriesAt, type EntryView } from './entry-shape.js';
import { parseConfig } from './parse-config.js';
import type { Launcher, ServersLocation, TextEdit } from './types.js';

/** What happened to one entry. */
export interface EntryResult {
  location: ServersLocation;
  name: string;
  action: 'wrapped' | 'unwrapped' | 'skipped';
  /** Why an entry was skipped, in plain words. */
  reason?: string;
  kind: EntryKind['kind'];
}

/** The outcome for one file: its new text (identical when nothing changed) and one result per entry. */
export interface FilePlan {
  file: string;
  text: string;
  newText: string;
  results: EntryResult[];
}

/** One entry of a location, with its value in the common shape and its classification. */
export interface FoundEntry extends EntryView {
  location: ServersLocation;
  kind: EntryKind;
}

/** Every entry in the given locations of a parsed file, in source order. */
export function entriesIn(tree: TNode | undefined, locations: ServersLocation[]): FoundEntry[] {
  return locations.flatMap((location) => entriesAt(tree, location).map((v) => ({ ...v, location, kind: classifyEntry(v.value) })));
}

function selected(names: ReadonlySet<string> | undefined, name: string): boolean {
  return names === undefined || names.size === 0 || names.has(name);
}

function skipReason(kind: EntryKind, mode: 'wrap' | 'unwrap'): string {
  switch (kind.kind) {
    case 'remote':
      return kind.reason;
    case 'invalid':
      return kind.reason;
    case 'wrapped':
      return kind.original ? 'already wrapped' : 'wrapped, but the server command cannot be told from its arguments';
    case 'self':
      return "mcp-tap's own MCP server (mcp-tap mcp): never wrapped, its session would be logged into the logs it reads";
    case 'stdio':
      return mode === 'unwrap' ? 'not wrapped' : '';
  }
}

/** The JSON path of an entry's `args` (under the nested `command` object in Zed's older shape). */
function argsPath(e: EntryView): (string | number)[] {
  const nested = e.target.kind === 'keys' && e.target.obj !== e.node;
  return [...e.path, ...(nested ? ['command'] : []), 'args'];
}

function commandLine(value: unknown): { command: unknown; args: unknown } {
  const v = (value ?? {}) as { command?: unknown; args?: unknown };
  return { command: v.command, args: v.args };
}

/**
 * Reads the edited text back: entries in `expected` must have that command line, every other entry the
 * value it had. Throws an InputError naming the entry otherwise (a format corner the edit got wrong).
 */
function verify(plan: FilePlan, format: ConfigFormat, locations: ServersLocation[], before: FoundEntry[], expected: Map<string, { command: unknown; args: unknown }>, mode: string): void {
  if (plan.newText === plan.text) return;
  const key = (e: FoundEntry) => `${JSON.stringify(e.location.serversPath)}#${e.name}`;
  let after: FoundEntry[];
  try {
    after = entriesIn(parseConfig(plan.newText, plan.file, format), locations);
  } catch {
    after = [];
  }
  const fail = (name: string) => {
    throw new InputError(`cannot ${mode} "${name}" in ${plan.file}: the edited file would not read back as intended; nothing written (edit this entry by hand or use --config on a copy)`);
  };
  if (after.length !== before.length) fail(before[0]?.name ?? '?');
  before.forEach((b, i) => {
    const a = after[i]!;
    if (key(a) !== key(b)) fail(b.name);
    const want = expected.get(key(b));
    if (want) {
      const got = commandLine(a.value);
      if (JSON.stringify(got) !== JSON.stringify(want)) fail(b.name);
      const { command: _c, args: _a, ...restA } = a.value as Record<string, unknown>;
      const { command: _c2, args: _a2, ...restB } = b.value as Record<string, unknown>;
      if (JSON.stringify(restA) !== JSON.stringify(restB)) fail(b.name);
    } else if (JSON.stringify(a.value) !== JSON.stringify(b.value)) {
      fail(b.name);
    }
  });
}

function finish(text: string, edits: TextEdit[]): string {
  return edits.length ? applyEdits(text, edits) : text;
}

/** Wraps the selected stdio entries of one file. */
export function planWrap(
  text: string,
  file: string,
  locations: ServersLocation[],
  opts: { names?: ReadonlySet<string>; launcher: Launcher },
): FilePlan {
  const format = formatOf(file);
  const tree = parseConfig(text, file, format);
  const eol = detectEol(text);
  const edits: TextEdit[] = [];
  const results: EntryResult[] = [];
  const entries = entriesIn(tree, locations);
  const expected = new Map<string, { command: unknown; args: unknown }>();
  for (const e of entries) {
    if (!selected(opts.names, e.name)) continue;
    const base = { location: e.location, name: e.name, kind: e.kind.kind };
    if (e.kind.kind !== 'stdio') {
      results.push({ ...base, action: 'skipped', reason: skipReason(e.kind, 'wrap') });
      continue;
    }
    if (!editable(e.target)) {
      results.push({ ...base, action: 'skipped', reason: 'its command or args are written in a form mcp-tap does not edit (multi-line strings, anchors or tags)' });
      continue;
    }
    const name = tapName(e.name);
    edits.push(...wrapEdits(text, e.target, name, opts.launcher, eol, format));
    const l = opts.launcher;
    expected.set(`${JSON.stringify(e.location.serversPath)}#${e.name}`, {
      command: l.command,
      args: [...l.prefixArgs, '--name', name, '--', e.kind.command, ...(e.kind.args ?? [])],
    });
    results.push({ ...base, action: 'wrapped' });
  }
  const plan = { file, text, newText: finish(text, edits), results };
  verify(plan, format, locations, entries, expected, 'wrap');
  return plan;
}

/** Restores the selected wrapped entries of one file; `backupText` is the copy wrap saved before its first change. */
export function planUnwrap(
  text: string,
  file: string,
  locations: ServersLocation[],
  opts: { names?: ReadonlySet<string>; backupText?: string },
): FilePlan {
  const format = formatOf(file);
  const tree = parseConfig(text, file, format);
  let backup: FoundEntry[] = [];
  if (opts.backupText !== undefined) {
    try {
      backup = entriesIn(parseConfig(opts.backupText, `${file} backup`, format), locations);
    } catch {
      backup = []; // an unreadable backup only means "assume no args key"
    }
  }
  const edits: TextEdit[] = [];
  const results: EntryResult[] = [];
  const entries = entriesIn(tree, locations);
  const expected = new Map<string, { command: unknown; args: unknown }>();
  for (const e of entries) {
    if (!selected(opts.names, e.name)) continue;
    const base = { location: e.location, name: e.name, kind: e.kind.kind };
    if (e.kind.kind !== 'wrapped' || !e.kind.original || !editable(e.target)) {
      results.push({ ...base, action: 'skipped', reason: skipReason(e.kind, 'unwrap') });
      continue;
    }
    const old = backup.find((b) => b.name === e.name && b.location === e.location);
    const hadArgs = old !== undefined && Array.isArray(commandLine(old.value).args);
    edits.push(...unwrapEdits(text, e.target, e.kind.originalIndex, hadArgs, format, argsPath(e)));
    const { command, args } = e.kind.original;
    expected.set(`${JSON.stringify(e.location.serversPath)}#${e.name}`, {
      command,
      args: args.length || hadArgs || e.target.kind === 'array' ? args : undefined,
    });
    results.push({ ...base, action: 'unwrapped' });
  }
  const plan = { file, text, newText: finish(text, edits), results };
  verify(plan, format, locations, entries, expected, 'unwrap');
  return plan;
}
