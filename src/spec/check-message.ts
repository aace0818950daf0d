/**
 * One JSON-RPC message checked against a revision's shapes: a request's or notification's `params` by
 * its method, a result by the method of the request it answers (or the other shape a result may take:
 * a task handle, an input_required answer), an error object by its code. Methods a revision does not
 * define (vendor methods, methods of other revisions: the analysis reports those) are not checked. Pure.
 */
import type { Revision, Shape } from './revision.js';
import { shapesOf } from './revisions.js';
import { violationsOf, type Violation } from './violations.js';

/** What a message is, as the log records it. */
export type MessageKind = 'request' | 'notification' | 'response' | 'error';

/** A message that breaks its shape: which shape, where its spec is, and the members that break it. */
export interface Verdict {
  revision: Revision;
  shape: Shape;
  /** The method's spec page (relative to the revision's root). */
  page: string;
  violations: Violation[];
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The shape a message is held to under `rev`, the part of it that is checked and that part's pointer;
 * undefined when `rev` defines no shape for it.
 */
export function shapeFor(rev: Revision, kind: MessageKind, method: string | undefined, msg: Obj): { shape: Shape; page: string; value: unknown; base: string } | undefined {
  const s = shapesOf(rev);
  switch (kind) {
    case 'request': {
      const m = method !== undefined && Object.hasOwn(s.requests, method) ? s.requests[method] : undefined;
      return m ? { shape: m.params, page: m.page, value: msg['params'], base: '/params' } : undefined;
    }
    case 'notification': {
      const m = method !== undefined && Object.hasOwn(s.notifications, method) ? s.notifications[method] : undefined;
      return m ? { shape: m.params, page: m.page, value: msg['params'], base: '/params' } : undefined;
    }
    case 'response': {
      const m = method !== undefined && Object.hasOwn(s.requests, method) ? s.requests[method] : undefined;
      if (!m) return undefined;
      const result = msg['result'];
      return { shape: s.resultAlternative?.(method!, result) ?? m.result, page: m.page, value: result, base: '/result' };
    }
    case 'error': {
      const error = msg['error'];
      const code = isObj(error) && typeof error['code'] === 'number' ? error['code'] : undefined;
      const shape = (code !== undefined && Object.hasOwn(s.errorCodes, code) ? s.errorCodes[code] : undefined) ?? s.error;
      const page = method !== undefined && Object.hasOwn(s.requests, method) ? s.requests[method]!.page : 'basic';
      return { shape, page, value: error, base: '/error' };
    }
  }
}

/** The verdict on one message under `rev`: undefined when it matches its shape or has none. */
export function checkMessage(rev: Revision, kind: MessageKind, method: string | undefined, msg: unknown, base = ''): Verdict | undefined {
  if (!isObj(msg)) return undefined;
  const target = shapeFor(rev, kind, method, msg);
  if (!target) return undefined;
  const violations = violationsOf(target.shape.schema, target.value, base + target.base);
  return violations.length > 0 ? { revision: rev, shape: target.shape, page: target.page, violations } : undefined;
}
