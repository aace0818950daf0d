/**
 * One tree shape for every config format a host uses (JSON/JSONC, TOML, YAML), with the source offsets
 * that wrap and unwrap need to touch only the bytes they must. Each format's reader (tree-json.ts,
 * tree-toml.ts, tree-yaml.ts) builds it with a parser that keeps positions; nothing is ever re-printed.
 */

export type ConfigFormat = 'json' | 'toml' | 'yaml';

/** A property of an object node: its key and where the key text starts. */
export interface TProp {
  key: string;
  /** Start of the whole key text (`a.b.args` in TOML's dotted keys, the quote of a JSON key). */
  keyStart: number;
  /** Start of the last segment of the key (`args` in `a.b.args`); equals keyStart for simple keys. */
  lastKeyStart: number;
  value: TNode;
}

/** A value in a config file with its source range. */
export interface TNode {
  type: 'object' | 'array' | 'string' | 'other';
  offset: number;
  end: number;
  /** Written inline ({…} / […] / JSON); false for YAML block collections and TOML [tables]. */
  flow: boolean;
  props: TProp[];
  items: TNode[];
  /** YAML block sequences: the offset of each item's `-`. */
  itemStarts?: number[];
  /** Scalars: the value as the host reads it. */
  scalar?: unknown;
  /** Strings that may be copied verbatim into an array and back (single-line tokens). */
  copyable?: boolean;
}

/** The format a config file is read as, from its name. */
export function formatOf(file: string): ConfigFormat {
  const lower = file.toLowerCase();
  if (lower.endsWith('.toml')) return 'toml';
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return 'yaml';
  return 'json';
}

/** The plain value of a node, as the host would read it. */
export function plainValue(node: TNode): unknown {
  if (node.type === 'object') {
    const out: Record<string, unknown> = {};
    for (const p of node.props) out[p.key] = plainValue(p.value);
    return out;
  }
  if (node.type === 'array') return node.items.map(plainValue);
  return node.scalar;
}

/** The last property of an object with this key (as JSON.parse keeps the last duplicate). */
export function prop(obj: TNode | undefined, key: string): TProp | undefined {
  let found: TProp | undefined;
  for (const p of obj?.props ?? []) if (p.key === key) found = p;
  return found;
}

/** The node at a path of keys (strings into objects, numbers into arrays). */
export function nodeAt(root: TNode | undefined, path: readonly (string | number)[]): TNode | undefined {
  let node = root;
  for (const k of path) {
    if (!node) return undefined;
    node = typeof k === 'number' ? (node.type === 'array' ? node.items[k] : undefined) : node.type === 'object' ? prop(node, k)?.value : undefined;
  }
  return node;
}

/** An empty object node (for readers that assemble objects from several places, like TOML tables). */
export function objectNode(offset: number, end: number, flow: boolean): TNode {
  return { type: 'object', offset, end, flow, props: [], items: [] };
}
