/** JSON/JSONC config text → TNode, through jsonc-parser's offset tree (comments and trailing commas allowed). */
import type { Node } from 'jsonc-parser';
import type { TNode } from './config-tree.js';
import { parseConfigTree } from './jsonc-tree.js';

function convert(n: Node): TNode {
  const base = { offset: n.offset, end: n.offset + n.length, flow: true, props: [], items: [] };
  if (n.type === 'object') {
    const node: TNode = { ...base, type: 'object' };
    for (const p of n.children ?? []) {
      const [k, v] = p.children ?? [];
      if (k && v && typeof k.value === 'string') node.props.push({ key: k.value, keyStart: k.offset, lastKeyStart: k.offset, value: convert(v) });
    }
    return node;
  }
  if (n.type === 'array') return { ...base, type: 'array', items: (n.children ?? []).map(convert) };
  if (n.type === 'string') return { ...base, type: 'string', scalar: n.value, copyable: true };
  return { ...base, type: 'other', scalar: n.value };
}

/** Parses a JSON/JSONC config; a syntax error becomes one InputError with line and column. */
export function parseJsonTree(text: string, file: string): TNode | undefined {
  const tree = parseConfigTree(text, file);
  return tree ? convert(tree) : undefined;
}
