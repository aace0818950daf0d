/**
 * TOML config text → TNode (Codex CLI's config.toml), through toml-eslint-parser's AST, which keeps the
 * source range of every key and value. [tables], dotted keys and inline tables all end up as objects;
 * a property records where its key text starts so a new key can be written with the same prefix.
 */
import { parseTOML } from 'toml-eslint-parser';
import type { AST } from 'toml-eslint-parser';
import { InputError } from '../errors.js';
import { objectNode, prop, type TNode } from './config-tree.js';

function keyName(k: AST.TOMLBare | AST.TOMLQuoted): string {
  return k.type === 'TOMLBare' ? k.name : k.value;
}

function valueNode(v: AST.TOMLContentNode): TNode {
  const [offset, end] = v.range;
  const base = { offset, end, flow: true, props: [], items: [] };
  if (v.type === 'TOMLArray') return { ...base, type: 'array', items: v.elements.map(valueNode) };
  if (v.type === 'TOMLInlineTable') {
    const obj = objectNode(offset, end, true);
    for (const kv of v.body) addKeyValue(obj, kv, true);
    return obj;
  }
  if (v.kind === 'string') return { ...base, type: 'string', scalar: v.value, copyable: !v.multiline };
  return { ...base, type: 'other', scalar: v.value };
}

/** The object at `key` inside `obj`, created when missing (dotted keys and table headers make them). */
function childObject(obj: TNode, key: string, keyStart: number, at: [number, number], flow: boolean): TNode {
  const existing = prop(obj, key)?.value;
  if (existing?.type === 'object') return existing;
  if (existing?.type === 'array') {
    const last = existing.items[existing.items.length - 1];
    if (last?.type === 'object') return last;
  }
  const child = objectNode(at[0], at[1], flow);
  obj.props.push({ key, keyStart, lastKeyStart: keyStart, value: child });
  return child;
}

function addKeyValue(obj: TNode, kv: AST.TOMLKeyValue, flow: boolean): void {
  const keys = kv.key.keys;
  let target = obj;
  for (const k of keys.slice(0, -1)) target = childObject(target, keyName(k), k.range[0], kv.range, flow);
  const last = keys[keys.length - 1]!;
  target.props.push({ key: keyName(last), keyStart: kv.key.range[0], lastKeyStart: last.range[0], value: valueNode(kv.value) });
}

/** Parses a TOML config; a syntax error becomes one InputError with line and column. */
export function parseTomlTree(text: string, file: string): TNode {
  let ast: AST.TOMLProgram;
  try {
    // A UTF-8 byte order mark is not TOML syntax; blank it with a same-length space so offsets stay true.
    ast = parseTOML(text.startsWith('\uFEFF') ? ` ${text.slice(1)}` : text);
  } catch (err) {
    const e = err as { message?: string; lineNumber?: number; column?: number };
    const where = e.lineNumber !== undefined ? ` at line ${e.lineNumber}, column ${(e.column ?? 0) + 1}` : '';
    throw new InputError(`cannot read ${file}: ${String(e.message ?? err).replace(/\.$/, '').toLowerCase()}${where}`);
  }
  const root = objectNode(0, text.length, false);
  const top = ast.body[0];
  for (const item of top?.body ?? []) {
    if (item.type === 'TOMLKeyValue') {
      addKeyValue(root, item, false);
      continue;
    }
    const keys = item.key.keys;
    let obj = root;
    for (const k of keys.slice(0, -1)) obj = childObject(obj, keyName(k), k.range[0], item.range, false);
    const last = keys[keys.length - 1]!;
    let table: TNode;
    if (item.kind === 'array') {
      let arr = prop(obj, keyName(last))?.value;
      if (arr?.type !== 'array') {
        arr = { type: 'array', offset: item.range[0], end: item.range[1], flow: false, props: [], items: [] };
        obj.props.push({ key: keyName(last), keyStart: last.range[0], lastKeyStart: last.range[0], value: arr });
      }
      table = objectNode(item.range[0], item.range[1], false);
      arr.items.push(table);
    } else {
      table = childObject(obj, keyName(last), last.range[0], item.range, false);
      table.end = Math.max(table.end, item.range[1]);
    }
    for (const kv of item.body) addKeyValue(table, kv, false);
  }
  return root;
}
