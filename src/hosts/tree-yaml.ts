/**
 * YAML config text → TNode (Continue, Goose), through the `yaml` package's Document, whose nodes keep
 * their source ranges and whose CST gives the offset of each block sequence item's `-`. Comments, anchors
 * and styles stay in the text because nothing is re-printed.
 */
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node as YNode } from 'yaml';
import { InputError } from '../errors.js';
import type { TNode } from './config-tree.js';

const COPYABLE_STYLES = new Set(['PLAIN', 'QUOTE_SINGLE', 'QUOTE_DOUBLE']);

function seqItemStarts(seq: YNode): number[] | undefined {
  const tok = seq.srcToken;
  if (!tok || tok.type !== 'block-seq') return undefined;
  const out: number[] = [];
  for (const it of tok.items) {
    const ind = it.start.find((t) => t.type === 'seq-item-ind');
    if (!ind) return undefined;
    out.push(ind.offset);
  }
  return out;
}

function convert(n: unknown, doc: Document, text: string): TNode {
  const node = n as YNode | null;
  const range = node?.range ?? [0, 0, 0];
  const base = { offset: range[0], end: range[1], flow: true, props: [], items: [] };
  if (isMap(node)) {
    const obj: TNode = { ...base, type: 'object', flow: node.flow === true };
    for (const pair of node.items) {
      const key = pair.key as YNode | null;
      if (!isScalar(key) || !key.range) continue;
      obj.props.push({ key: String(key.value), keyStart: key.range[0], lastKeyStart: key.range[0], value: convert(pair.value, doc, text) });
    }
    return obj;
  }
  if (isSeq(node)) {
    const seq: TNode = { ...base, type: 'array', flow: node.flow === true, items: node.items.map((i) => convert(i, doc, text)) };
    if (!seq.flow) {
      const starts = seqItemStarts(node);
      if (starts && starts.length === seq.items.length) seq.itemStarts = starts;
    }
    return seq;
  }
  if (isScalar(node) && typeof node.value === 'string') {
    const oneLine = !/[\r\n]/.test(text.slice(range[0], range[1]));
    return { ...base, type: 'string', scalar: node.value, copyable: oneLine && COPYABLE_STYLES.has(String(node.type)) && !node.anchor && !node.tag };
  }
  if (isAlias(node)) return { ...base, type: 'other', scalar: node.resolve(doc)?.toJSON() };
  if (isScalar(node)) return { ...base, type: 'other', scalar: node.value };
  return { ...base, type: 'other', scalar: null };
}

/** Parses a YAML config (its first document); a syntax error becomes one InputError with line and column. */
export function parseYamlTree(text: string, file: string): TNode | undefined {
  const doc = parseDocument(text, { keepSourceTokens: true, prettyErrors: true, uniqueKeys: false });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    const where = pos ? ` at line ${pos.line}, column ${pos.col}` : '';
    // the library's words for a file of several documents name its API; say what is wrong with the file
    const message =
      first.code === 'MULTIPLE_DOCS'
        ? 'it holds several YAML documents (---), and a host reads a config of one'
        : first.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw new InputError(`cannot read ${file}: ${message}${where}`);
  }
  if (doc.contents === null) return undefined;
  return convert(doc.contents, doc, text);
}
