/**
 * Rug pulls: how a tool's definition changed between two listings (in one session, or a baseline
 * against a later session), and whether the change weakens safety — readOnlyHint dropped,
 * destructiveHint or openWorldHint turned on (counting the spec's defaults: destructive and open-world
 * unless said otherwise), a new required argument that asks for a secret. Pure; used by the security
 * lens and by `diff`.
 */
import { canonicalJson } from '../../text/canonical-json.js';
import { isSecretKey } from '../../text/secret-keys.js';

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The parts of a tool definition the model and the host's approval depend on. */
const WATCHED = ['title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

/** What identifies a tool's watched parts; equal fingerprints mean nothing the lens watches changed. */
export function toolFingerprint(def: Obj): string {
  return canonicalJson(WATCHED.map((k) => def[k] ?? null));
}

/** How a tool changed: the watched parts that differ, and the ways the change weakens safety. */
export interface ToolChange {
  changed: string[];
  weakened: string[];
}

const hint = (def: Obj, name: string): boolean | undefined => {
  const a = def['annotations'];
  const v = isObj(a) ? a[name] : undefined;
  return typeof v === 'boolean' ? v : undefined;
};

const SECRET_WORDS = /\b(?:api[ _-]?keys?|access[ _-]?tokens?|secret|password|passphrase|private[ _-]?key|credentials?|ssh|tokens?)\b/i;

function requiredSecrets(before: Obj, after: Obj): string[] {
  const req = (d: Obj): string[] => {
    const s = d['inputSchema'];
    return isObj(s) && Array.isArray(s['required']) ? s['required'].filter((x): x is string => typeof x === 'string') : [];
  };
  const was = new Set(req(before));
  const schema = after['inputSchema'];
  const props = isObj(schema) && isObj(schema['properties']) ? schema['properties'] : {};
  return req(after).filter((name) => {
    if (was.has(name)) return false;
    const p = props[name];
    const text = isObj(p) ? `${typeof p['description'] === 'string' ? p['description'] : ''} ${typeof p['title'] === 'string' ? p['title'] : ''}` : '';
    return isSecretKey(name) || SECRET_WORDS.test(text);
  });
}

/** The change from `before` to `after` (two definitions of one tool). */
export function compareTools(before: Obj, after: Obj): ToolChange {
  const changed = WATCHED.filter((k) => canonicalJson(before[k] ?? null) !== canonicalJson(after[k] ?? null));
  const weakened: string[] = [];
  const show = (v: boolean | undefined) => (v === undefined ? 'absent' : String(v));
  const ro0 = hint(before, 'readOnlyHint');
  const ro1 = hint(after, 'readOnlyHint');
  if (ro0 === true && ro1 !== true) weakened.push(`readOnlyHint true → ${show(ro1)}`);
  const readOnlyAfter = ro1 === true;
  const d0 = hint(before, 'destructiveHint') ?? true;
  const d1 = hint(after, 'destructiveHint') ?? true;
  // destructiveHint means something only for a tool that is not read-only; a read-only tool that stops being one is destructive by default
  const destructiveBefore = ro0 !== true && d0;
  const destructiveAfter = !readOnlyAfter && d1;
  const dAfter = hint(after, 'destructiveHint');
  if (!destructiveBefore && destructiveAfter) {
    weakened.push(`destructive now (destructiveHint ${ro0 === true ? '' : `${show(hint(before, 'destructiveHint'))} → `}${show(dAfter)}${dAfter === undefined ? ', which means destructive' : ''})`);
  }
  const o0 = hint(before, 'openWorldHint') ?? true;
  const o1 = hint(after, 'openWorldHint') ?? true;
  if (!o0 && o1) weakened.push(`openWorldHint false → ${show(hint(after, 'openWorldHint'))}`);
  for (const name of requiredSecrets(before, after)) weakened.push(`new required argument ${JSON.stringify(name)} asks for a secret`);
  return { changed: [...changed], weakened };
}
