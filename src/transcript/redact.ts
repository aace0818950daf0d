/**
 * Redaction for exports: every transcript that leaves the machine goes through here first. Pure: the
 * caller decides which environment values count as secrets (see secretEnvValues) and passes them in.
 * Rules and their markers are listed in docs/export.md.
 */
import type { LogRecord } from '../log/record.js';
import { isSecretKey, norm } from '../text/secret-keys.js';
import { afterPemClose, isMarker, marker, opensPemBlock, redactText, type TextRedactor } from './redact-text.js';

export { marker, isMarker } from './redact-text.js';
export { isSecretKey } from '../text/secret-keys.js';

/** What to redact beyond the built-in rules. */
export interface RedactOptions {
  /** Extra key names whose values are secret (compared like the built-in names: case, `-`, `_` ignored). */
  keys?: readonly string[];
  /** Extra patterns (the `g` flag is added); every match becomes `[REDACTED:pattern]`. */
  patterns?: readonly RegExp[];
  /** Known secret values, e.g. from the environment; each occurrence becomes `[REDACTED:env:<name>]`. */
  values?: readonly { name: string; value: string }[];
}

const FLAG_WORDS = new Set([
  'token', 'secret', 'secrets', 'password', 'passwd', 'pass', 'pwd', 'pw', 'key', 'apikey', 'auth', 'authorization',
  'credential', 'credentials', 'cookie', 'session', 'pat', 'bearer', 'jwt', 'dsn',
]);
const FLAG_SUBSTRINGS = ['token', 'secret', 'password', 'passwd', 'apikey', 'credential', 'privatekey', 'accesskey'];

/** Words of a flag or variable name: `--apiKey` → api, key; `GITHUB_TOKEN` → github, token. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** True for a command-line flag (without dashes) whose value is a secret: --token, --api-key, --db-password… */
export function isSecretFlag(name: string): boolean {
  const w = words(name);
  if (w[0] === 'no' || w[0] === 'max' || w[0] === 'min') return false; // --no-auth, --max-tokens
  if (w.some((x) => FLAG_WORDS.has(x))) return true;
  const k = norm(name);
  return FLAG_SUBSTRINGS.some((s) => k.includes(s));
}

/** True for an environment variable whose value should never appear in an export (GITHUB_TOKEN, PGPASSWORD…). */
export function isSecretEnvName(name: string): boolean {
  const w = words(name);
  // AUTH (SSH_AUTH_SOCK), SESSION (XDG_SESSION_TYPE) and PWD (the working directory) name no secret here
  if (w.some((x) => FLAG_WORDS.has(x) && x !== 'auth' && x !== 'session' && x !== 'pwd')) return true;
  const k = norm(name);
  return FLAG_SUBSTRINGS.some((s) => k.includes(s));
}

/** Shortest value taken from the environment by name alone; shorter ones (`1`, `true`) would shred the text. */
export const MIN_ENV_SECRET_LENGTH = 6;

/**
 * The secret values to redact from an environment: every variable whose name looks secret (value of at
 * least MIN_ENV_SECRET_LENGTH characters), plus the variables named explicitly (any non-empty value).
 * A log holds only the names of the server's variables, so a value can be redacted only where it is known.
 */
export function secretEnvValues(env: NodeJS.ProcessEnv, explicit: readonly string[] = []): { name: string; value: string }[] {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value.length >= MIN_ENV_SECRET_LENGTH && isSecretEnvName(name)) out.set(name, value);
  }
  for (const name of explicit) {
    const value = env[name];
    if (value !== undefined && value.length > 0) out.set(name, value);
  }
  // longest first, so a value that contains another is replaced whole
  return [...out].map(([name, value]) => ({ name, value })).sort((a, b) => b.value.length - a.value.length);
}

/** Options compiled once: key set, global regexes. */
interface Compiled extends TextRedactor {
  keySet: ReadonlySet<string>;
}

const cache = new WeakMap<RedactOptions, Compiled>();
const EMPTY: RedactOptions = {};

function compile(opts: RedactOptions = EMPTY): Compiled {
  let c = cache.get(opts);
  if (c) return c;
  const keySet = new Set((opts.keys ?? []).map(norm).filter((k) => k.length > 0));
  const patterns = (opts.patterns ?? []).map((re) => new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`));
  const values = [...(opts.values ?? [])].filter((v) => v.value.length > 0).sort((a, b) => b.value.length - a.value.length);
  c = { keySet, patterns, values, isKey: (name: string) => isSecretKey(name, keySet) };
  cache.set(opts, c);
  return c;
}

/** Keys under which a JSON Schema lives: its property names are schema, not secrets. */
const SCHEMA_KEYS = new Set(['inputschema', 'outputschema', 'requestedschema']);
/** Inside the schema of a secret-named property, these hold example values of the secret. */
const SCHEMA_VALUE_KEYS = new Set(['default', 'const', 'examples', 'example', 'enum']);

const MAX_DEPTH = 200;
const MAX_JSON_TEXT = 8 * 1024 * 1024;

type Mode = 'data' | 'schema';

/** A secret-keyed value becomes a marker; booleans, null and '' carry nothing and stay. */
function redactKeyed(value: unknown, key: string): unknown {
  if (value === null || typeof value === 'boolean' || value === '') return value;
  if (typeof value === 'string' && isMarker(value)) return value;
  return marker(`key:${key.toLowerCase()}`);
}

function redactStringValue(s: string, c: Compiled, depth: number): string {
  const t = s.trim();
  if (t.length >= 2 && t.length <= MAX_JSON_TEXT && ((t[0] === '{' && t.endsWith('}')) || (t[0] === '[' && t.endsWith(']')))) {
    let parsed: unknown;
    let ok = false;
    try {
      parsed = JSON.parse(t);
      ok = true;
    } catch {
      // not JSON after all: text rules below
    }
    if (ok && parsed !== null && typeof parsed === 'object') {
      const red = walk(parsed, c, 'data', depth + 1);
      if (red === parsed) return redactText(s, c);
      const text = JSON.stringify(red, null, t.includes('\n') ? 2 : undefined);
      return s.slice(0, s.indexOf(t[0]!)) + text + s.slice(s.lastIndexOf(t[t.length - 1]!) + 1);
    }
  }
  return redactText(s, c);
}

function walk(value: unknown, c: Compiled, mode: Mode, depth: number): unknown {
  if (typeof value === 'string') return redactStringValue(value, c, depth);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return marker('too-deep');
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      const r = walk(v, c, mode, depth + 1);
      if (r !== v) {
        out ??= value.slice();
        out[i] = r;
      }
    }
    return out ?? value;
  }
  const obj = value as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  let renamed = false;
  const entries: Array<[string, unknown]> = [];
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    const k = norm(key);
    let r: unknown;
    if (mode === 'schema') {
      r = k === 'properties' && v !== null && typeof v === 'object' && !Array.isArray(v) ? walkSchemaProperties(v as Record<string, unknown>, c, depth + 1) : walk(v, c, 'schema', depth + 1);
    } else if (SCHEMA_KEYS.has(k)) {
      r = walk(v, c, 'schema', depth + 1);
    } else if (isSecretKey(key, c.keySet)) {
      r = redactKeyed(v, key);
    } else {
      r = walk(v, c, 'data', depth + 1);
    }
    const newKey = redactText(key, c);
    if (newKey !== key) renamed = true;
    if (r !== v || newKey !== key) out ??= {};
    entries.push([newKey, r]);
  }
  if (!out && !renamed) return value;
  return objectOf(entries);
}

/** An object of `entries` whose keys redaction may have made equal: a later one gets `#2`, `#3`, … */
function objectOf(entries: ReadonlyArray<[string, unknown]>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [k, v] of entries) {
    let name = k;
    for (let n = 2; Object.hasOwn(result, name); n++) name = `${k}#${n}`;
    result[name] = v;
  }
  return result;
}

/** `properties` of a schema: names stay; a secret-named property's default/examples/enum/const are redacted. */
function walkSchemaProperties(props: Record<string, unknown>, c: Compiled, depth: number): unknown {
  let changed = false;
  const result: Record<string, unknown> = {};
  for (const name of Object.keys(props)) {
    const sub = props[name];
    let r = walk(sub, c, 'schema', depth + 1);
    if (isSecretKey(name, c.keySet) && r !== null && typeof r === 'object' && !Array.isArray(r)) {
      const o = r as Record<string, unknown>;
      let copy: Record<string, unknown> | null = null;
      for (const k of Object.keys(o)) {
        if (SCHEMA_VALUE_KEYS.has(k.toLowerCase())) {
          const v = o[k];
          // examples/enum stay arrays, each value redacted
          const red = Array.isArray(v) ? (v.some((x) => redactKeyed(x, name) !== x) ? v.map((x) => redactKeyed(x, name)) : v) : redactKeyed(v, name);
          if (red !== o[k]) {
            copy ??= { ...o };
            copy[k] = red;
          }
        }
      }
      if (copy) r = copy;
    }
    if (r !== sub) changed = true;
    result[name] = r;
  }
  return changed ? result : props;
}

/** Redacts a parsed JSON value: secret keys at any depth, token shapes in strings, JSON nested as text, schemas. */
export function redactValue(value: unknown, opts?: RedactOptions): unknown {
  return walk(value, compile(opts), 'data', 0);
}

/**
 * Redacts every string of a plain value, keys included, with the text rules only: for a report about a
 * log (check, audit, diff, stats), whose own members (`session`, `tokens`) must not be taken for secrets.
 */
export function redactStrings(value: unknown, opts?: RedactOptions): unknown {
  const c = compile(opts);
  const walkStrings = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v, c);
    if (Array.isArray(v)) return v.map(walkStrings);
    if (typeof v === 'object' && v !== null) return objectOf(Object.entries(v).map(([k, x]) => [redactText(k, c), walkStrings(x)]));
    return v;
  };
  return walkStrings(value);
}

/** Redacts one string with the text rules (token shapes, `name=value`, user patterns, known values). */
export function redactString(text: string, opts?: RedactOptions): string {
  return redactText(text, compile(opts));
}

/** Redacts a server command line: `--token=x`, `--api-key x`, `NAME=secret`, and token shapes in any argument. */
export function redactArgs(args: readonly string[], opts?: RedactOptions): string[] {
  const c = compile(opts);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = /^(-{1,2})([A-Za-z0-9][A-Za-z0-9_.-]*)=([\s\S]*)$/.exec(a);
    if (eq && isSecretFlag(eq[2]!) && eq[3] !== '') {
      out.push(isMarker(eq[3]!) ? a : `${eq[1]}${eq[2]}=${marker(`flag:${eq[1]}${eq[2]}`)}`);
      continue;
    }
    const flag = /^(-{1,2})([A-Za-z][A-Za-z0-9_.-]*)$/.exec(a);
    const next = args[i + 1];
    if (flag && flag[1] === '--' && isSecretFlag(flag[2]!) && next !== undefined && !next.startsWith('-') && next !== '') {
      out.push(a, isMarker(next) ? next : marker(`flag:${a}`));
      i++;
      continue;
    }
    out.push(redactText(a, c));
  }
  return out;
}

/** Record fields that are mcp-tap's own structure, never wire data. */
const STRUCTURAL = new Set(['v', 'time', 'session', 'seq', 'from', 'kind', 'reqSeq', 'ms', 'bytes', 'truncated', 'partial', 'isError', 'retryOf', 'exchangeMs', 'taskOf', 'taskStatus', 'taskMs', 'event', 'envNames']);

/** Redacts one log record; the result is a new record (the input is not changed). */
export function redactRecord(record: LogRecord, opts?: RedactOptions): LogRecord {
  const c = compile(opts);
  const out: LogRecord = { ...record };
  for (const key of Object.keys(record)) {
    if (STRUCTURAL.has(key)) continue;
    const v = record[key];
    switch (key) {
      case 'msg':
        out.msg = walk(v, c, 'data', 0);
        break;
      case 'raw':
      case 'method':
      case 'target':
      case 'command':
      case 'id':
        if (typeof v === 'string') out[key] = redactText(v, c);
        break;
      case 'args':
        if (Array.isArray(v) && v.every((x) => typeof x === 'string')) out.args = redactArgs(v as string[], opts);
        else out.args = walk(v, c, 'data', 0);
        break;
      default:
        out[key] = walk(v, c, 'data', 0);
    }
  }
  // `walk` treats `notes` and `items` as data: their code/kind fields hold no secrets and stay unchanged.
  return out;
}

/**
 * Redacts records in order. Unlike redactRecord it follows a PEM private key printed over several
 * stderr (or invalid) lines, each of which alone would show only base64.
 */
export class RecordRedactor {
  private readonly openPem = new Set<string>();
  constructor(private readonly opts?: RedactOptions) {}

  /** The redacted copy of the next record. */
  next(record: LogRecord): LogRecord {
    const out = redactRecord(record, this.opts);
    if (typeof record.raw !== 'string') return out;
    const stream = `${record.session}\u0000${record.from}\u0000${record.kind === 'stderr' ? 'stderr' : 'stdout'}`;
    if (this.openPem.has(stream)) {
      const rest = afterPemClose(record.raw);
      if (rest === null) {
        out.raw = marker('private-key');
        return out;
      }
      this.openPem.delete(stream);
      out.raw = marker('private-key') + redactString(rest, this.opts);
      if (opensPemBlock(rest)) this.openPem.add(stream);
      return out;
    }
    if (opensPemBlock(record.raw)) this.openPem.add(stream);
    return out;
  }
}

/** Redacts a whole sequence of records (see RecordRedactor). */
export function redactRecords(records: Iterable<LogRecord>, opts?: RedactOptions): LogRecord[] {
  const r = new RecordRedactor(opts);
  const out: LogRecord[] = [];
  for (const rec of records) out.push(r.next(rec));
  return out;
}
