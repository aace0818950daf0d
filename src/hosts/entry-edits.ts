/**
 * The textual edits that wrap or unwrap one server entry, in any config format (offsets in, TextEdit[]
 * out). They touch only the command line and are exact inverses of each other:
 * - wrap replaces the command's string token with mcp-tap and inserts mcp-tap's arguments in front of
 *   the original args; the last inserted element is the original command's token copied verbatim (an
 *   opencode command array keeps its program where it is and gets mcp-tap's elements in front);
 * - unwrap copies that token back and deletes the inserted elements by their offsets.
 * When the entry had no `args` key, wrap adds one right after the command (same line for JSON objects
 * and inline tables, the next line for YAML block maps and TOML tables) and unwrap removes it again.
 * New elements follow the array's own layout: its separator, one per line, or YAML `- ` items.
 */
import { modify } from 'jsonc-parser';
import type { ConfigFormat, TNode, TProp } from './config-tree.js';
import { prop } from './config-tree.js';
import type { CommandTarget } from './entry-shape.js';
import type { Launcher, TextEdit } from './types.js';

/** The line break a file uses (CRLF when its first line break is CRLF). */
export function detectEol(text: string): '\n' | '\r\n' {
  const i = text.indexOf('\n');
  return i > 0 && text[i - 1] === '\r' ? '\r\n' : '\n';
}

/** A string in the format's syntax: JSON's double-quoted form, which TOML basic strings and YAML read too. */
export function quoteFor(format: ConfigFormat, s: string): string {
  const q = JSON.stringify(s);
  return format === 'toml' ? q.replace(/\x7f/g, '\\u007F') : q;
}

function source(text: string, n: TNode): string {
  return text.slice(n.offset, n.end);
}

/** Whitespace before `offset` on its line when only whitespace precedes it there; undefined otherwise. */
function leadingIndent(text: string, offset: number): string | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  return /^[ \t]*$/.test(before) ? before : undefined;
}

/** Indentation that puts a new line's text under `offset` (YAML keys after `- ` count their column). */
function columnIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return leadingIndent(text, offset) ?? ' '.repeat(offset - lineStart);
}

/** Offset of the line break ending the line that holds `offset` (text length on the last line). */
function lineEnd(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  if (nl === -1) return text.length;
  return nl > 0 && text[nl - 1] === '\r' ? nl - 1 : nl;
}

/** Separator between flow array elements in the style the array already uses. */
function elementSeparator(text: string, elements: TNode[], eol: string): string {
  const [a, b] = elements;
  if (a && b) {
    const between = text.slice(a.end, b.offset);
    if (/^\s*,\s*$/.test(between)) return between;
  }
  if (a) {
    const indent = leadingIndent(text, a.offset);
    if (indent !== undefined) return `,${eol}${indent}`;
  }
  return ', ';
}

/** Inserts already-quoted elements in front of a non-empty array's first element. */
function insertFront(text: string, arr: TNode, inserted: string[], eol: string): TextEdit {
  if (arr.itemStarts) {
    const dash = arr.itemStarts[0]!;
    const indent = columnIndent(text, dash);
    return { offset: dash, length: 0, content: inserted.map((x) => `- ${x}${eol}${indent}`).join('') };
  }
  const sep = elementSeparator(text, arr.items, eol);
  return { offset: arr.items[0]!.offset, length: 0, content: inserted.join(sep) + sep };
}

/** Deletes the first `count` elements of an array whose element `count` remains. */
function deleteFront(arr: TNode, count: number): TextEdit {
  if (arr.itemStarts) return { offset: arr.itemStarts[0]!, length: arr.itemStarts[count]! - arr.itemStarts[0]!, content: '' };
  return { offset: arr.items[0]!.offset, length: arr.items[count]!.offset - arr.items[0]!.offset, content: '' };
}

/** `args = ` / `args: ` / `"args": ` with the same dotted prefix the command's key has (TOML `a.b.command`). */
function argsKeyText(text: string, format: ConfigFormat, cmdProp: TProp): string {
  const prefix = text.slice(cmdProp.keyStart, cmdProp.lastKeyStart);
  if (format === 'toml') return `${prefix}args = `;
  if (format === 'yaml') return 'args: ';
  return '"args": ';
}

function commandProp(target: Extract<CommandTarget, { kind: 'keys' }>): TProp {
  const p = prop(target.obj, target.commandKey);
  if (!p || p.value.type !== 'string' || !p.value.copyable) throw new Error('wrapEdits: entry has no single-line string command');
  return p;
}

/** Whether wrap can edit this entry's text (a one-line string command; args, when present, a list of one-line strings). */
export function editable(target: CommandTarget): boolean {
  if (target.kind === 'array') return target.arr.items.length > 0 && target.arr.items.every((i) => i.copyable === true);
  const cmd = prop(target.obj, target.commandKey)?.value;
  const args = prop(target.obj, 'args')?.value;
  return cmd?.type === 'string' && cmd.copyable === true && (args === undefined || (args.type === 'array' && args.items.every((i) => i.copyable === true)));
}

/** Edits that make an entry start mcp-tap with the original command after `--`. */
export function wrapEdits(text: string, target: CommandTarget, tapName: string, launcher: Launcher, eol: string, format: ConfigFormat): TextEdit[] {
  const q = (s: string) => quoteFor(format, s);
  const tapArgs = [...launcher.prefixArgs, '--name', tapName, '--'].map(q);
  if (target.kind === 'array') return [insertFront(text, target.arr, [q(launcher.command), ...tapArgs], eol)];
  const cmdProp = commandProp(target);
  const cmd = cmdProp.value;
  const inserted = [...tapArgs, source(text, cmd)];
  const newCommand = q(launcher.command);
  const cmdEdit: TextEdit = { offset: cmd.offset, length: cmd.end - cmd.offset, content: newCommand };
  const args = prop(target.obj, 'args')?.value;
  if (!args) {
    const newArgs = `${argsKeyText(text, format, cmdProp)}[${inserted.join(', ')}]`;
    if (format === 'json') {
      const indent = leadingIndent(text, cmdProp.keyStart);
      cmdEdit.content = `${newCommand},${indent !== undefined ? `${eol}${indent}` : ' '}${newArgs}`;
      return [cmdEdit];
    }
    if (target.obj.flow) {
      cmdEdit.content = `${newCommand}, ${newArgs}`;
      return [cmdEdit];
    }
    const indent = format === 'yaml' ? columnIndent(text, cmdProp.keyStart) : (leadingIndent(text, cmdProp.keyStart) ?? '');
    return [cmdEdit, { offset: lineEnd(text, cmd.end), length: 0, content: `${eol}${indent}${newArgs}` }];
  }
  if (args.type !== 'array') throw new Error('wrapEdits: args is not an array');
  if (args.items.length === 0) return [cmdEdit, { offset: args.offset + 1, length: 0, content: inserted.join(', ') }];
  return [cmdEdit, insertFront(text, args, inserted, eol)];
}

/**
 * Edits that restore a wrapped entry: the server command (args[originalIndex]) goes back to the command
 * and everything before it in args is removed. When no args follow it, the `args` key is removed unless
 * `keepEmptyArgs` (the original had an empty args list). `argsPath` is the JSON path of `args` (used
 * only for a JSON args key that was moved away from the command by hand).
 */
export function unwrapEdits(
  text: string,
  target: CommandTarget,
  originalIndex: number,
  keepEmptyArgs: boolean,
  format: ConfigFormat,
  argsPath: (string | number)[],
): TextEdit[] {
  if (target.kind === 'array') {
    if (!target.arr.items[originalIndex + 1]) throw new Error('unwrapEdits: not a wrapped entry');
    return [deleteFront(target.arr, originalIndex + 1)];
  }
  const cmd = prop(target.obj, target.commandKey)?.value;
  const argsProp = prop(target.obj, 'args');
  const args = argsProp?.value;
  const orig = args?.items[originalIndex];
  if (!cmd || !argsProp || !args || !orig || orig.type !== 'string' || !orig.copyable) throw new Error('unwrapEdits: not a wrapped entry');
  const restore: TextEdit = { offset: cmd.offset, length: cmd.end - cmd.offset, content: source(text, orig) };
  if (args.items[originalIndex + 1]) return [restore, deleteFront(args, originalIndex + 1)];
  if (keepEmptyArgs) {
    if (args.itemStarts) return [restore, { offset: args.offset, length: args.end - args.offset, content: '[]' }];
    // A host that rewrote the file (Claude Code re-prints its configs) spread the list over lines: what
    // would be left between the brackets is only their line breaks and indentation, so the list is `[]` again.
    const left = text.slice(args.offset + 1, args.items[0]!.offset) + text.slice(orig.end, args.end - 1);
    if (/^\s*$/.test(left) && /[\r\n]/.test(left)) return [restore, { offset: args.offset, length: args.end - args.offset, content: '[]' }];
    return [restore, { offset: args.items[0]!.offset, length: orig.end - args.items[0]!.offset, content: '' }];
  }
  const between = text.slice(cmd.end, argsProp.keyStart);
  if (format === 'json' || target.obj.flow) {
    // args directly follows command, as wrap writes it: remove exactly what wrap inserted.
    if (argsProp.keyStart > cmd.end && /^\s*,\s*$/.test(between)) {
      return [{ ...restore, length: args.end - cmd.offset }];
    }
    if (format === 'json') return [restore, ...modify(text, argsPath, undefined, {})];
    throw new Error('unwrapEdits: args was moved away from the command inside an inline table');
  }
  const le = lineEnd(text, cmd.end);
  if (argsProp.keyStart > le && /^\r?\n[ \t]*$/.test(text.slice(le, argsProp.keyStart))) {
    return [restore, { offset: le, length: args.end - le, content: '' }];
  }
  // args was moved by hand to another line of the block: remove that line.
  const lineStart = text.lastIndexOf('\n', argsProp.keyStart - 1) + 1;
  if (lineStart === 0 || leadingIndent(text, argsProp.keyStart) === undefined) throw new Error('unwrapEdits: cannot remove the args key');
  const from = lineStart - (text[lineStart - 2] === '\r' ? 2 : 1);
  return [restore, { offset: from, length: args.end - from, content: '' }];
}
