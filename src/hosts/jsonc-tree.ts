/** Reading a JSON/JSONC config as a tree with source offsets, so edits can touch only the bytes they must. */
import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { InputError } from '../errors.js';

/** Parses config text (comments and trailing commas allowed); a syntax error becomes one clear InputError. */
export function parseConfigTree(text: string, file: string): Node | undefined {
  // A UTF-8 byte order mark is not JSON; blank it with a same-length space so offsets stay true.
  const source = text.startsWith('\uFEFF') ? ` ${text.slice(1)}` : text;
  const errors: ParseError[] = [];
  const tree = parseTree(source, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  const first = errors[0];
  if (first) {
    const { line, column } = lineColumn(source, first.offset);
    throw new InputError(`cannot read ${file}: ${describeParseError(printParseErrorCode(first.error))} at line ${line}, column ${column}`);
  }
  return tree;
}

function describeParseError(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/** The object node at a JSON path, or undefined when the path is missing or not an object. */
export function objectAt(tree: Node | undefined, path: (string | number)[]): Node | undefined {
  if (!tree) return undefined;
  const node = findNodeAtLocation(tree, path);
  return node?.type === 'object' ? node : undefined;
}

/** The property nodes of an object, in source order: [key node, value node] pairs. */
export function properties(obj: Node): { prop: Node; key: string; value: Node }[] {
  const out: { prop: Node; key: string; value: Node }[] = [];
  for (const prop of obj.children ?? []) {
    const [k, v] = prop.children ?? [];
    if (k && v && typeof k.value === 'string') out.push({ prop, key: k.value, value: v });
  }
  return out;
}

/** The value node of one property of an object node (the last one when a key repeats, as JSON.parse does). */
export function propertyValue(obj: Node, key: string): Node | undefined {
  let found: Node | undefined;
  for (const p of properties(obj)) if (p.key === key) found = p.value;
  return found;
}

/** The property node (key and value) for a key. */
export function propertyNode(obj: Node, key: string): Node | undefined {
  let found: Node | undefined;
  for (const p of properties(obj)) if (p.key === key) found = p.prop;
  return found;
}

/** The plain value of a node. */
export function valueOf(node: Node): unknown {
  return getNodeValue(node);
}

/** The exact source text of a node. */
export function sourceOf(text: string, node: Node): string {
  return text.slice(node.offset, node.offset + node.length);
}

export type { Node };
