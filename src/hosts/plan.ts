/**
 * Whole-file wrap and unwrap: which entries change, why others are skipped, and the new text. Pure:
 * text in, text out, so the I/O edge (config-io.ts) only reads, backs up and writes.
 */
import { applyEdits, type Node } from 'jsonc-parser';
import { classifyEntry, tapName, type EntryKind } from './entry-kind.js';
import { detectEol, unwrapEdits, wrapEdits } from './entry-edits.js';
import { objectAt, parseConfigTree, properties, propertyNode, valueOf } from './jsonc-tree.js';
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

/** One entry of a servers object, with its parsed value and classification. */
export interface FoundEntry {
  location: ServersLocation;
  name: string;
  node: Node;
  value: unknown;
  kind: EntryKind;
}

/** Every entry in the given locations of a parsed file, in source order. */
export function entriesIn(tree: Node | undefined, locations: ServersLocation[]): FoundEntry[] {
  const out: FoundEntry[] = [];
  for (const location of locations) {
    const servers = objectAt(tree, location.serversPath);
    if (!servers) continue;
    for (const { key, value } of properties(servers)) {
      const v = valueOf(value);
      out.push({ location, name: key, node: value, value: v, kind: classifyEntry(v) });
    }
  }
  return out;
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
    case 'stdio':
      return mode === 'unwrap' ? 'not wrapped' : '';
  }
}

/** Wraps the selected stdio entries of one file. */
export function planWrap(
  text: string,
  file: string,
  locations: ServersLocation[],
  opts: { names?: ReadonlySet<string>; launcher: Launcher },
): FilePlan {
  const tree = parseConfigTree(text, file);
  const eol = detectEol(text);
  const edits: TextEdit[] = [];
  const results: EntryResult[] = [];
  for (const e of entriesIn(tree, locations)) {
    if (!selected(opts.names, e.name)) continue;
    const base = { location: e.location, name: e.name, kind: e.kind.kind };
    if (e.kind.kind !== 'stdio') {
      results.push({ ...base, action: 'skipped', reason: skipReason(e.kind, 'wrap') });
      continue;
    }
    edits.push(...wrapEdits(text, e.node, tapName(e.name), opts.launcher, eol));
    results.push({ ...base, action: 'wrapped' });
  }
  return { file, text, newText: edits.length ? applyEdits(text, edits) : text, results };
}

/** Whether the backup copy of a file shows an `args` key for this entry (so unwrap keeps `"args": []`). */
function backupHadArgs(backupTree: Node | undefined, location: ServersLocation, name: string): boolean {
  const entry = objectAt(backupTree, [...location.serversPath, name]);
  return entry !== undefined && propertyNode(entry, 'args') !== undefined;
}

/** Restores the selected wrapped entries of one file; `backupText` is the copy wrap saved before its first change. */
export function planUnwrap(
  text: string,
  file: string,
  locations: ServersLocation[],
  opts: { names?: ReadonlySet<string>; backupText?: string },
): FilePlan {
  const tree = parseConfigTree(text, file);
  let backupTree: Node | undefined;
  if (opts.backupText !== undefined) {
    try {
      backupTree = parseConfigTree(opts.backupText, `${file} backup`);
    } catch {
      backupTree = undefined; // an unreadable backup only means "assume no args key"
    }
  }
  const edits: TextEdit[] = [];
  const results: EntryResult[] = [];
  for (const e of entriesIn(tree, locations)) {
    if (!selected(opts.names, e.name)) continue;
    const base = { location: e.location, name: e.name, kind: e.kind.kind };
    if (e.kind.kind !== 'wrapped' || !e.kind.original) {
      results.push({ ...base, action: 'skipped', reason: skipReason(e.kind, 'unwrap') });
      continue;
    }
    edits.push(...unwrapEdits(text, e.node, e.kind.originalIndex, backupHadArgs(backupTree, e.location, e.name)));
    results.push({ ...base, action: 'unwrapped' });
  }
  return { file, text, newText: edits.length ? applyEdits(text, edits) : text, results };
}
