/**
 * The spec lens: every message of a session checked against the schema of the protocol revision it is
 * sent under (src/spec), both directions — requests' and notifications' params, results by the method
 * they answer, error objects by code. The revision is the negotiated one (the initialize answer, the
 * lifecycle event), in a stateless session the request's own `_meta` version, and before either the
 * version the client offered; where none is known (tail -n reading from the middle of a session) a
 * message is flagged only when no revision allows it. State: the current revision. Pure.
 */
import type { LogRecord, Note } from '../log/record.js';
import { checkMessage, shapeFor, type MessageKind, type Verdict } from '../spec/check-message.js';
import { isRevision, pageUrl, shapeUrl, since, type Revision } from '../spec/revision.js';
import { sdkBehaviour } from '../spec/sdk-behaviour.js';
import type { Lens, LensKind } from './lens.js';

export const SCHEMA_VIOLATION = 'schema-violation';

const NONE: readonly Note[] = [];
const KINDS = new Set(['request', 'response', 'error', 'notification', 'batch']);
const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
/** Members of a violation list shown in a note; the rest are counted. */
const SHOWN = 3;
/** Revisions tried when the session's is not known: the one that allows most first, so a clean message costs one check. */
const UNKNOWN_ORDER: readonly Revision[] = ['2025-11-25', '2026-07-28', '2025-06-18', '2025-03-26', '2024-11-05'];
/** What the analysis' missing-protocol-version note already says about a stateless request. */
const SAID_BY_ANALYSIS = new Set(['/params', '/params/_meta', '/params/_meta/io.modelcontextprotocol~1protocolVersion']);

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The spec lens (`schema-violation`). */
export const specLens: LensKind = {
  id: 'spec',
  codes: { [SCHEMA_VIOLATION]: 'a message that does not match the schema of its protocol revision' },
  create: () => new SpecLens(),
};

class SpecLens implements Lens {
  /** The revision messages are read under now (maybe one mcp-tap has no shapes for); undefined: not known yet. */
  private current: string | undefined;
  /** The initialize handshake was answered: per-request `_meta` versions no longer decide. */
  private negotiated = false;

  needsBody(head: LogRecord): boolean {
    return KINDS.has(head.kind) && head.from !== 'proxy' && head.truncated !== true;
  }

  observe(r: LogRecord): readonly Note[] {
    if (r.kind === 'event') {
      if (r.event === 'lifecycle' && typeof r['protocolVersion'] === 'string') {
        this.current = r['protocolVersion'];
        if (r['era'] === 'handshake') this.negotiated = true;
      }
      return NONE;
    }
    // a shortened copy (strings cut) is not the message that was sent; a structurally broken one the analysis reports
    if (!this.needsBody(r) || r.msg === undefined || r.partial === true) return NONE;
    if (Array.isArray(r.notes) && r.notes.some((n) => n.code === 'not-jsonrpc')) return NONE;
    const skip = Array.isArray(r.notes) && r.notes.some((n) => n.code === 'missing-protocol-version') ? SAID_BY_ANALYSIS : undefined;
    if (r.kind === 'batch') {
      if (!Array.isArray(r.msg) || !Array.isArray(r.items)) return NONE;
      const out: Note[] = [];
      r.items.forEach((item, i) => {
        const note = this.message(item.kind as MessageKind, r.from, item.method, (r.msg as unknown[])[i], `/${i}`, skip);
        if (note) out.push({ code: note.code, text: `element ${i + 1}: ${note.text}` });
      });
      return out;
    }
    const note = this.message(r.kind as MessageKind, r.from, r.method, r.msg, '', skip);
    return note ? [note] : NONE;
  }

  /** Follows the revision through one message, then checks the message under it. */
  private message(kind: MessageKind, from: string, method: string | undefined, msg: unknown, base: string, skip?: ReadonlySet<string>): Note | undefined {
    if (!isObj(msg)) return undefined;
    let rev = this.current;
    const params = msg['params'];
    if (kind === 'request' && from === 'client') {
      if (method === 'initialize' && isObj(params) && typeof params['protocolVersion'] === 'string') {
        this.current = rev = params['protocolVersion'];
        this.negotiated = false;
      } else if (!this.negotiated && isObj(params) && isObj(params['_meta']) && typeof params['_meta'][VERSION_KEY] === 'string') {
        this.current = rev = params['_meta'][VERSION_KEY];
      }
    } else if (kind === 'response' && method === 'initialize' && isObj(msg['result']) && typeof msg['result']['protocolVersion'] === 'string') {
      // the answer is in the version it names
      this.current = rev = msg['result']['protocolVersion'];
      this.negotiated = true;
    }
    const found = isRevision(rev) ? checkMessage(rev, kind, method, msg, base) : checkUnderEvery(kind, method, msg, base);
    if (!found) return undefined;
    const verdict = skip ? { ...found, violations: found.violations.filter((v) => !skip.has(v.pointer.slice(base.length))) } : found;
    if (verdict.violations.length === 0) return undefined;
    return { code: SCHEMA_VIOLATION, text: noteText(verdict, kind, from, method, msg, !isRevision(rev)) };
  }
}

/**
 * The revision is not known: a verdict only when every revision that shapes the message rejects it —
 * the closest one's (fewest violations; the first tried of equals).
 */
function checkUnderEvery(kind: MessageKind, method: string | undefined, msg: Obj, base: string): Verdict | undefined {
  let closest: Verdict | undefined;
  for (const rev of UNKNOWN_ORDER) {
    if (!shapeFor(rev, kind, method, msg)) continue; // a method of other revisions
    const v = checkMessage(rev, kind, method, msg, base);
    if (!v) return undefined; // a revision allows it
    if (!closest || v.violations.length < closest.violations.length) closest = v;
  }
  return closest;
}

const subject = (kind: MessageKind, method: string | undefined): string => {
  const m = method ?? '(unpaired)';
  switch (kind) {
    case 'request':
      return `this ${m} request`;
    case 'notification':
      return `this ${m} notification`;
    case 'response':
      return `this answer to ${m}`;
    case 'error':
      return `this error answer${method !== undefined ? ` to ${method}` : ''}`;
  }
};

function noteText(v: Verdict, kind: MessageKind, from: string, method: string | undefined, msg: Obj, unknownRevision: boolean): string {
  const shown = v.violations.slice(0, SHOWN).map((x) => `${x.pointer || '(the message)'}: expected ${x.expected}, found ${x.found}`);
  const more = v.violations.length > SHOWN ? `; and ${v.violations.length - SHOWN} more` : '';
  const under = unknownRevision ? `any MCP revision (the session's is not known here; ${v.revision}'s shown)` : `MCP ${v.revision}`;
  const behaviour = sdkBehaviour(v.revision, kind, from, method, msg);
  const url = since(v.revision, '2025-06-18') ? shapeUrl(v.revision, v.shape.name) : pageUrl(v.revision, v.page);
  return `${subject(kind, method)} does not match ${v.shape.name} of ${under}: ${shown.join('; ')}${more}.${behaviour ? ` ${behaviour}` : ''} See ${url}`;
}
