/**
 * JSON paths for differences (`result.content[0].text`) and the simple patterns `--ignore` accepts:
 * an optional leading `$`, `.key` or `["key"]`, `[n]`, `*` / `[*]` (any one key or index) and `..`
 * (any number of levels, JSONPath's recursive descent): `result.content[*].text`, `$.result._meta`,
 * `..timestamp`. A pattern matches a path and everything below it.
 */
import { UsageError } from '../errors.js';

export type Segment = string | number;

type Token = { t: 'key'; name: string } | { t: 'index'; n: number } | { t: 'any' } | { t: 'descend' };

/** A parsed `--ignore` pattern. */
export interface PathPattern {
  source: string;
  tokens: Token[];
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Segments → `result.content[0].text` (keys that are not identifiers as `["key"]`). */
export function formatPath(path: readonly Segment[]): string {
  let out = '';
  for (const s of path) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (IDENT.test(s)) out += out === '' ? s : `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out === '' ? '$' : out;
}

function bad(source: string, why: string): UsageError {
  return new UsageError(`--ignore ${JSON.stringify(source)}: ${why} (examples: result.content[*].text, $.result._meta, ..timestamp)`);
}

/** Parses a pattern; throws UsageError saying what is wrong with it. */
export function parsePattern(source: string): PathPattern {
  const tokens: Token[] = [];
  let i = 0;
  const s = source.trim();
  if (s === '') throw bad(source, 'the path is empty');
  if (s[0] === '$') i = 1;
  let needSep = false; // after a segment, a key needs a '.' before it
  while (i < s.length) {
    const c = s[i]!;
    if (c === '.') {
      if (s[i + 1] === '.') {
        tokens.push({ t: 'descend' });
        i += 2;
      } else i++;
      const m = /^(\*|[^.[\]]+)/.exec(s.slice(i));
      if (!m) {
        if (tokens.at(-1)?.t === 'descend' && s[i] === '[') {
          needSep = false;
          continue;
        }
        throw bad(source, `a name must follow '.' at position ${i}`);
      }
      tokens.push(m[1] === '*' ? { t: 'any' } : { t: 'key', name: m[1]! });
      i += m[1]!.length;
      needSep = true;
      continue;
    }
    if (c === '[') {
      const close = s.indexOf(']', i);
      if (close < 0) throw bad(source, `'[' at position ${i} is not closed`);
      const inner = s.slice(i + 1, close).trim();
      if (inner === '*') tokens.push({ t: 'any' });
      else if (/^\d+$/.test(inner)) tokens.push({ t: 'index', n: Number(inner) });
      else if (/^"(?:[^"\\]|\\.)*"$/.test(inner)) {
        try {
          tokens.push({ t: 'key', name: JSON.parse(inner) as string });
        } catch {
          throw bad(source, `${inner} is not a valid quoted name`);
        }
      } else if (/^'[^']*'$/.test(inner)) tokens.push({ t: 'key', name: inner.slice(1, -1) });
      else throw bad(source, `[${inner}] is neither an index, [*] nor a quoted name`);
      i = close + 1;
      needSep = true;
      continue;
    }
    if (needSep) throw bad(source, `unexpected ${JSON.stringify(c)} at position ${i}`);
    const m = /^(\*|[^.[\]]+)/.exec(s.slice(i))!;
    tokens.push(m[1] === '*' ? { t: 'any' } : { t: 'key', name: m[1]! });
    i += m[1]!.length;
    needSep = true;
  }
  if (tokens.length === 0) throw bad(source, 'it names nothing (use a key, an index or *)');
  if (tokens.at(-1)!.t === 'descend') throw bad(source, "'..' must be followed by a name");
  return { source, tokens };
}

function tokenMatches(t: Token, s: Segment): boolean {
  switch (t.t) {
    case 'any':
      return true;
    case 'key':
      return typeof s === 'string' ? s === t.name : String(s) === t.name;
    case 'index':
      return s === t.n;
    case 'descend':
      return false;
  }
}

function matchFrom(tokens: readonly Token[], ti: number, path: readonly Segment[], pi: number): boolean {
  if (ti === tokens.length) return true; // the pattern names this path or one of its ancestors
  const t = tokens[ti]!;
  if (t.t === 'descend') {
    for (let k = pi; k <= path.length; k++) if (matchFrom(tokens, ti + 1, path, k)) return true;
    return false;
  }
  if (pi >= path.length) return false;
  return tokenMatches(t, path[pi]!) && matchFrom(tokens, ti + 1, path, pi + 1);
}

/** True when the pattern names `path` or one of its ancestors. */
export function patternMatches(p: PathPattern, path: readonly Segment[]): boolean {
  return matchFrom(p.tokens, 0, path, 0);
}
