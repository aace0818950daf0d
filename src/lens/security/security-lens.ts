/**
 * The security lens: what the model is shown and sends, record by record — hidden Unicode and
 * injected instructions in every definition the server lists (the first time each definition is seen,
 * so re-listings do not repeat it), tools that change after the host saw them (rug pulls), and
 * credentials in tool results, resource reads, server requests and tool arguments. Pure; bounded per
 * session (known definitions are capped, notes are capped per code by NoteBudget).
 */
import type { LogRecord, Note } from '../../log/record.js';
import { NoteBudget } from '../bounded-notes.js';
import type { Lens, LensKind } from '../lens.js';
import { describeHits, findCredentials } from './credentials.js';
import { definitionTexts, type DefinitionKind } from './definition-texts.js';
import { findInjection } from './injection.js';
import { compareTools, toolFingerprint } from './rug-pull.js';
import { SECURITY_RULES } from './rules.js';
import { confusableName, findHiddenUnicode, shown } from './unicode.js';

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Listing method → the result member and the item's key and kind. */
const LISTINGS: Record<string, { field: string; key: string; kind: DefinitionKind }> = {
  'tools/list': { field: 'tools', key: 'name', kind: 'tool' },
  'prompts/list': { field: 'prompts', key: 'name', kind: 'prompt' },
  'resources/list': { field: 'resources', key: 'uri', kind: 'resource' },
  'resources/templates/list': { field: 'resourceTemplates', key: 'uriTemplate', kind: 'resource template' },
};

/** Definitions remembered per session (for re-listings and rug pulls); beyond it each listing is checked whole. */
const MAX_DEFINITIONS = 10_000;
const MAX_ITEMS = 5_000;

const BODY_METHODS = new Set(['initialize', 'tools/call', 'resources/read', ...Object.keys(LISTINGS)]);

/** Whether the lens reads this record's body. */
function needsBody(head: LogRecord): boolean {
  if (head.kind === 'batch') return true;
  if (head.kind === 'response') return typeof head.method === 'string' && BODY_METHODS.has(head.method);
  if (head.kind === 'request') return head.from === 'server' || head.method === 'tools/call';
  return false;
}

/** Findings of one rule on one definition, merged into one note. */
class NoteSet {
  private readonly byKey = new Map<string, { code: string; head: string; parts: string[] }>();
  add(code: string, head: string, part: string): void {
    const key = `${code}\0${head}`;
    const e = this.byKey.get(key);
    if (e) {
      if (e.parts.length < 4 && !e.parts.includes(part)) e.parts.push(part);
    } else this.byKey.set(key, { code, head, parts: [part] });
  }
  notes(): Note[] {
    return [...this.byKey.values()].map((e) => ({ code: e.code, text: `${e.head}: ${e.parts.join('; ')}` }));
  }
}

/** Strings of a result or request the model reads, with their paths; media payloads and _meta skipped. */
function textsOf(value: unknown, path: string, out: Array<{ where: string; text: string }>, depth = 0): void {
  if (out.length >= 5000 || depth > 40) return;
  if (typeof value === 'string') {
    out.push({ where: path, text: value });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => textsOf(v, `${path}[${i}]`, out, depth + 1));
    return;
  }
  if (!isObj(value)) return;
  const media = value['type'] === 'image' || value['type'] === 'audio';
  for (const [k, v] of Object.entries(value)) {
    if (k === '_meta' || k === 'blob' || (media && k === 'data')) continue;
    textsOf(v, path === '' ? k : `${path}.${k}`, out, depth + 1);
  }
}

/** One session through the security lens. */
class SecurityLens implements Lens {
  private readonly budget = new NoteBudget();
  /** `${kind}\0${key}` → fingerprint of the definition as last listed. */
  private readonly known = new Map<string, string>();
  /** Tool definitions as last listed (for rug pulls), by name. */
  private readonly tools = new Map<string, Obj>();
  /** seq of the last notifications/tools/list_changed since the last tools/list answer. */
  private listChanged: number | undefined;

  needsBody(head: LogRecord): boolean {
    return needsBody(head);
  }

  observe(r: LogRecord): readonly Note[] {
    const found: Note[] = [];
    if (r.kind === 'batch') {
      const msgs = Array.isArray(r.msg) ? (r.msg as unknown[]) : [];
      (r.items ?? []).forEach((it, i) => {
        if (!isObj(it)) return;
        const sub = { ...r, kind: it.kind, method: it.method, target: it.target, msg: msgs[i] } as LogRecord;
        if (needsBody(sub)) found.push(...this.message(sub, ` (batch element ${i})`));
      });
    } else {
      found.push(...this.message(r, ''));
    }
    const kept = found.length > 0 ? this.budget.take(found) : found;
    if (r.kind === 'event' && r.event === 'end') return [...kept, ...this.budget.summary()];
    return kept;
  }

  private message(r: LogRecord, suffix: string): Note[] {
    if (r.kind === 'notification' && r.from === 'server' && r.method === 'notifications/tools/list_changed') {
      this.listChanged = r.seq;
      return [];
    }
    const msg = isObj(r.msg) ? r.msg : undefined;
    if (!msg) return [];
    if (r.kind === 'request') {
      const params = msg['params'];
      if (r.from === 'client' && r.method === 'tools/call') {
        const args = isObj(params) ? params['arguments'] : undefined;
        const hits = findCredentials(args, 'arguments');
        return hits.length > 0 ? [{ code: 'credential-in-arguments', text: `tools/call ${shown(String(r.target ?? '?'))}${suffix} sends ${describeHits(hits)} (the model passes a secret to the server)` }] : [];
      }
      if (r.from === 'server') return this.payload(params, 'params', `${r.method ?? 'a request'} from the server${suffix}`);
      return [];
    }
    if (r.kind !== 'response' || r.from !== 'server') return [];
    const result = msg['result'];
    if (!isObj(result)) return [];
    const method = r.method ?? '';
    if (method === 'initialize') return this.definition('instructions', result['instructions'], `initialize instructions${suffix}`);
    if (method === 'tools/call') return this.payload(result, '', `tool ${shown(String(r.target ?? '?'))} result${suffix}`);
    if (method === 'resources/read') return this.payload(result, '', `resources/read ${shown(String(r.target ?? '?'))}${suffix}`);
    const spec = LISTINGS[method];
    if (!spec) return [];
    const items = result[spec.field];
    if (!Array.isArray(items)) return [];
    return this.listing(spec.kind, spec.key, items.slice(0, MAX_ITEMS), r.seq, suffix);
  }

  /** Hidden Unicode and credentials in a result or a server request the model reads. */
  private payload(value: unknown, path: string, head: string): Note[] {
    const out = new NoteSet();
    const hits = findCredentials(value, path);
    if (hits.length > 0) out.add('credential-in-result', head, `${describeHits(hits)} — the model now holds it`);
    const texts: Array<{ where: string; text: string }> = [];
    textsOf(value, path, texts);
    for (const t of texts) for (const u of findHiddenUnicode(t.text)) out.add(u.rule, head, `${t.where || '(value)'}: ${u.detail}`);
    return out.notes();
  }

  private listing(kind: DefinitionKind, keyName: string, items: unknown[], seq: number, suffix: string): Note[] {
    const notes: Note[] = [];
    const names = kind === 'tool' ? new Set(items.flatMap((d) => (isObj(d) && typeof d['name'] === 'string' ? [d['name']] : []))) : undefined;
    if (names) for (const n of this.tools.keys()) names.add(n);
    for (const def of items) {
      if (!isObj(def)) continue;
      const key = typeof def[keyName] === 'string' ? (def[keyName] as string) : '';
      const label = `${kind} ${shown(key)}${suffix}`;
      const print = kind === 'tool' ? toolFingerprint(def) : JSON.stringify(def);
      const id = `${kind}\0${key}`;
      const before = this.known.get(id);
      if (before === print) continue; // listed before, unchanged: its findings are on the first listing
      if (this.known.has(id) || this.known.size < MAX_DEFINITIONS) this.known.set(id, print);
      if (kind === 'tool') {
        const old = this.tools.get(key);
        if (old) notes.push(...this.rugPull(label, old, def, seq));
        if (this.tools.has(key) || this.tools.size < MAX_DEFINITIONS) this.tools.set(key, def);
      }
      notes.push(...this.definition(kind, def, label, names));
    }
    if (kind === 'tool') this.listChanged = undefined;
    return notes;
  }

  private rugPull(label: string, old: Obj, def: Obj, seq: number): Note[] {
    const change = compareTools(old, def);
    if (change.changed.length === 0) return [];
    const when = this.listChanged !== undefined ? `after notifications/tools/list_changed (seq ${this.listChanged})` : 'without a notifications/tools/list_changed';
    const what = `${change.changed.join(', ')} changed since the host first saw it, ${when}`;
    if (change.weakened.length > 0) return [{ code: 'tool-safety-weakened', text: `${label}: ${change.weakened.join('; ')} — ${what} (seq ${seq})` }];
    return [{ code: 'tool-definition-changed', text: `${label}: ${what}` }];
  }

  /** Unicode, confusable names and injection in one definition's texts. */
  private definition(kind: DefinitionKind, def: unknown, label: string, ownTools?: ReadonlySet<string>): Note[] {
    if (kind === 'instructions' && typeof def !== 'string') return [];
    const out = new NoteSet();
    const own = ownTools ?? new Set(this.tools.keys());
    for (const t of definitionTexts(kind, def)) {
      for (const u of findHiddenUnicode(t.text)) out.add(u.rule, label, `${t.where}: ${u.detail}`);
      if (t.role === 'name' && kind === 'tool') {
        const why = confusableName(t.text);
        if (why) out.add('confusable-tool-name', label, why);
      }
      if (t.role !== 'prose') continue;
      for (const m of findInjection(t.text, own, { instructions: kind === 'instructions' })) out.add(m.rule, label, `${t.where}: ${m.what} (${shown(m.match)})`);
    }
    return out.notes();
  }
}

/** The security lens (check's `security` category; rules in src/lens/security/rules.ts). */
export const SECURITY_LENS: LensKind = {
  id: 'security',
  codes: Object.fromEntries(SECURITY_RULES.filter((r) => r.scope === 'session').map((r) => [r.id, r.summary])),
  create: () => new SecurityLens(),
};
