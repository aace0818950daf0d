/**
 * What `diff` compares and `baseline save` reads: a baseline file, a log (its last session) or one
 * session of a log (`file#session`). Baseline files are recognised by their first key, so a log is
 * never read whole to find out.
 */
import { readFile, stat } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { describeFsError } from '../log/fs-error.js';
import { openToRead } from '../log/open-to-read.js';
import { escapeControl } from '../text/escape.js';
import { buildBaseline, BASELINE_VERSION, type Baseline } from './baseline.js';
import { BASELINE_BOUND } from './facts.js';
import { readFacts } from './read-facts.js';

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

const MAX_BASELINE_BYTES = 64 * 1024 * 1024;
const BASELINE_HEAD = /^\s*\{\s*"mcpTapBaseline"\s*:/;

/** A parsed baseline file → Baseline; throws InputError naming what is wrong. */
export function parseBaseline(value: unknown, path: string): Baseline {
  const bad = (what: string) => new InputError(`${path} is not a usable mcp-tap baseline: ${what}`);
  if (!isObj(value) || typeof value['mcpTapBaseline'] !== 'number') throw bad('no "mcpTapBaseline" version');
  const defs = (k: string) => {
    const v = value[k];
    if (v !== null && v !== undefined && !isObj(v)) throw bad(`"${k}" is not an object`);
    return (v ?? null) as Record<string, Record<string, unknown>> | null;
  };
  const latency = isObj(value['latency']) ? value['latency'] : {};
  const stats = (v: unknown) => {
    const out: Baseline['latency']['methods'] = {};
    if (!isObj(v)) return out;
    for (const [k, s] of Object.entries(v)) {
      if (isObj(s) && typeof s['median'] === 'number') out[k] = { n: typeof s['n'] === 'number' ? s['n'] : 1, median: s['median'] };
    }
    return out;
  };
  const findings: Record<string, number> = {};
  if (isObj(value['findings'])) for (const [k, n] of Object.entries(value['findings'])) findings[k] = typeof n === 'number' ? n : 1;
  return {
    mcpTapBaseline: value['mcpTapBaseline'],
    createdBy: typeof value['createdBy'] === 'string' ? value['createdBy'] : '',
    source: isObj(value['source']) ? (value['source'] as Baseline['source']) : { session: '' },
    server: isObj(value['server']) ? (value['server'] as Baseline['server']) : null,
    protocolVersion: typeof value['protocolVersion'] === 'string' ? value['protocolVersion'] : null,
    capabilities: isObj(value['capabilities']) ? value['capabilities'] : null,
    tools: defs('tools'),
    resources: defs('resources'),
    resourceTemplates: defs('resourceTemplates'),
    prompts: defs('prompts'),
    latency: { methods: stats(latency['methods']), tools: stats(latency['tools']) },
    findings,
  };
}

async function isBaselineFile(path: string): Promise<boolean> {
  let fh;
  try {
    fh = await openToRead(path);
  } catch {
    return false; // readFacts reports the missing file
  }
  try {
    if (!(await fh.stat()).isFile()) return false; // nor a FIFO or device: readFacts says what it is
    const buf = Buffer.alloc(256);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return BASELINE_HEAD.test(buf.subarray(0, bytesRead).toString('utf8'));
  } catch {
    return false;
  } finally {
    await fh.close();
  }
}

/** `file` or `file#session` → the file and the session (when the whole string names no existing file). */
export async function splitTarget(spec: string): Promise<{ file: string; session?: string }> {
  const hash = spec.lastIndexOf('#');
  if (hash <= 0 || hash === spec.length - 1) return { file: spec };
  const whole = await stat(spec).catch(() => null);
  if (whole) return { file: spec };
  return { file: spec.slice(0, hash), session: spec.slice(hash + 1) };
}

/** A side of `diff`. */
export interface LoadedBaseline {
  baseline: Baseline;
  /** How to name it in output: the file, and the session when it came from a log. */
  label: string;
  kind: 'baseline' | 'log';
}

/** A baseline file, a log (last session) or `log#session` → a baseline. */
export async function loadBaseline(spec: string, warn?: (m: string) => void): Promise<LoadedBaseline> {
  const { file, session } = await splitTarget(spec);
  if (session === undefined && (await isBaselineFile(file))) {
    const st = await stat(file);
    if (st.size > MAX_BASELINE_BYTES) throw new InputError(`${file} is too large for a baseline (${st.size} bytes)`);
    let value: unknown;
    try {
      value = JSON.parse(await readFile(file, 'utf8'));
    } catch (err) {
      if (err instanceof SyntaxError) throw new InputError(`${file} is not a usable mcp-tap baseline: not JSON (${err.message})`);
      throw new InputError(`cannot read ${file} (${describeFsError(err)})`, { cause: err });
    }
    const baseline = parseBaseline(value, file);
    if (baseline.mcpTapBaseline > BASELINE_VERSION) warn?.(`${file} is a baseline of a newer format (${baseline.mcpTapBaseline}); comparing what this version understands`);
    return { baseline, label: file, kind: 'baseline' };
  }
  const facts = await readFacts(file, { session: session ?? 'last', bound: BASELINE_BOUND, ...(warn ? { warn } : {}) });
  return { baseline: buildBaseline(facts), label: `${file} (session ${escapeControl(facts.session)})`, kind: 'log' };
}
