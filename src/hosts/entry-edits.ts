/**
 * The textual edits that wrap or unwrap one server entry. They touch only `command` and `args` and are
 * exact inverses of each other:
 * - wrap replaces the command's string token with mcp-tap, and inserts mcp-tap's arguments in front of
 *   the original args; the 4th inserted element is the original command's token copied verbatim;
 * - unwrap copies that token back into `command` and deletes the inserted elements by their offsets.
 * When the entry had no `args` key, wrap adds `"args": [...]` right after the command and unwrap removes
 * it again (see docs/host-integration.md for how an empty `"args": []` is told apart).
 */
import { getNodePath, modify, type Node } from 'jsonc-parser';
import { propertyNode, propertyValue, sourceOf } from './jsonc-tree.js';
import type { Launcher, TextEdit } from './types.js';

/** The line break a file uses (CRLF when its first line break is CRLF). */
export function detectEol(text: string): '\n' | '\r\n' {
  const i = text.indexOf('\n');
  return i > 0 && text[i - 1] === '\r' ? '\r\n' : '\n';
}

/** Whitespace before `offset` on its line when only whitespace precedes it there; undefined otherwise. */
function leadingIndent(text: string, offset: number): string | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  return /^[ \t]*$/.test(before) ? before : undefined;
}

/** Separator between array elements in the style the array already uses. */
function elementSeparator(text: string, elements: Node[], eol: string): string {
  const [a, b] = elements;
  if (a && b) {
    const between = text.slice(a.offset + a.length, b.offset);
    if (/^\s*,\s*$/.test(between)) return between;
  }
  if (a) {
    const indent = leadingIndent(text, a.offset);
    if (indent !== undefined) return `,${eol}${indent}`;
  }
  return ', ';
}

/** Edits that make an entry start mcp-tap with the original command after `--`. */
export function wrapEdits(text: string, entry: Node, tapName: string, launcher: Launcher, eol: string): TextEdit[] {
  const cmd = propertyValue(entry, 'command');
  if (!cmd || cmd.type !== 'string') throw new Error('wrapEdits: entry has no string command');
  const inserted = [...launcher.prefixArgs, '--name', tapName, '--'].map((s) => JSON.stringify(s));
  inserted.push(sourceOf(text, cmd));
  const newCommand = JSON.stringify(launcher.command);
  const cmdEdit: TextEdit = { offset: cmd.offset, length: cmd.length, content: newCommand };
  const args = propertyValue(entry, 'args');
  if (!args) {
    const cmdProp = propertyNode(entry, 'command')!;
    const indent = leadingIndent(text, cmdProp.offset);
    const sep = indent !== undefined ? `${eol}${indent}` : ' ';
    cmdEdit.content = `${newCommand},${sep}"args": [${inserted.join(', ')}]`;
    return [cmdEdit];
  }
  if (args.type !== 'array') throw new Error('wrapEdits: args is not an array');
  const elements = args.children ?? [];
  if (elements.length === 0) {
    return [cmdEdit, { offset: args.offset + 1, length: 0, content: inserted.join(', ') }];
  }
  const sep = elementSeparator(text, elements, eol);
  return [cmdEdit, { offset: elements[0]!.offset, length: 0, content: inserted.join(sep) + sep }];
}

/**
 * Edits that restore a wrapped entry: the server command (args[originalIndex]) goes back to `command`
 * and everything before it in args is removed. When no args follow it, the `args` key is removed unless
 * `keepEmptyArgs` (the original had `"args": []`).
 */
export function unwrapEdits(text: string, entry: Node, originalIndex: number, keepEmptyArgs: boolean): TextEdit[] {
  const cmd = propertyValue(entry, 'command');
  const args = propertyValue(entry, 'args');
  const elements = args?.children ?? [];
  const orig = elements[originalIndex];
  if (!cmd || !args || !orig || orig.type !== 'string') throw new Error('unwrapEdits: not a wrapped entry');
  const restored = sourceOf(text, orig);
  const next = elements[originalIndex + 1];
  const first = elements[0]!;
  if (next) {
    return [
      { offset: cmd.offset, length: cmd.length, content: restored },
      { offset: first.offset, length: next.offset - first.offset, content: '' },
    ];
  }
  if (keepEmptyArgs) {
    return [
      { offset: cmd.offset, length: cmd.length, content: restored },
      { offset: first.offset, length: orig.offset + orig.length - first.offset, content: '' },
    ];
  }
  const argsProp = propertyNode(entry, 'args')!;
  const cmdEnd = cmd.offset + cmd.length;
  if (argsProp.offset > cmdEnd && /^\s*,\s*$/.test(text.slice(cmdEnd, argsProp.offset))) {
    // args directly follows command, as wrap writes it: remove exactly what wrap inserted.
    return [{ offset: cmd.offset, length: argsProp.offset + argsProp.length - cmd.offset, content: restored }];
  }
  // args was moved by hand: let jsonc-parser remove the property wherever it now is.
  const removal = modify(text, getNodePath(args), undefined, {});
  return [{ offset: cmd.offset, length: cmd.length, content: restored }, ...removal];
}
