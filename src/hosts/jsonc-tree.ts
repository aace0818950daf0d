/** Reading a JSON/JSONC config as a tree with source offsets, so edits can touch only the bytes they must. */
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
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
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}
