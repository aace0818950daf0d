/**
 * Recorded requests and the answers they got, looked up by a live request's method and params: mock
 * answers the client's requests from it, replay answers the server's requests (sampling, roots,
 * elicitation) from it. Order of preference: a recorded request with exactly the same params (ignoring
 * `params._meta`, which carries per-run progress tokens and client info), then one with the same
 * target (tool, prompt, resource uri) for methods that have one, else one with the same method — each
 * tier in recorded order, the first not yet used, and once all are used the last one again.
 */
import { targetParam } from '../protocol/mcp.js';
import { deepEqual } from './compare.js';
import { bareParams, paramsHash, paramsOf, targetOf, type RecMsg } from './recorded.js';

export interface BookEntry {
  request: RecMsg;
  answer: RecMsg | undefined;
  /** Times this entry was used. */
  used: number;
}

export type MatchHow = 'exact' | 'target' | 'method';

export interface Match {
  entry: BookEntry;
  how: MatchHow;
}

function pick(list: BookEntry[]): BookEntry | undefined {
  return list.find((e) => e.used === 0) ?? list.at(-1);
}

export class AnswerBook {
  private readonly byMethod = new Map<string, BookEntry[]>();

  /**
   * `byTarget`: for tools/call, prompts/get and resources/read, never fall back to an answer for another
   * tool, prompt or resource.
   */
  constructor(
    entries: Iterable<BookEntry>,
    private readonly opts: { byTarget: boolean },
  ) {
    for (const e of entries) {
      const m = e.request.method;
      if (m === undefined) continue;
      const list = this.byMethod.get(m) ?? [];
      list.push(e);
      this.byMethod.set(m, list);
    }
  }

  /** All entries of a method (for messages that list what was recorded). */
  entries(method: string): readonly BookEntry[] {
    return this.byMethod.get(method) ?? [];
  }

  /** Methods and targets the book has answers for, for "unknown request" explanations. */
  known(): string[] {
    const out: string[] = [];
    for (const [m, list] of this.byMethod) {
      const targets = [...new Set(list.map((e) => e.request.target).filter((t): t is string => t !== undefined))];
      out.push(targets.length > 0 ? `${m} (${targets.join(', ')})` : m);
    }
    return out;
  }

  /** The best recorded entry for a live request, marked as used; undefined when none fits. */
  match(method: string, params: unknown): Match | undefined {
    const all = this.byMethod.get(method);
    if (!all || all.length === 0) return undefined;
    const live = bareParams(params);
    let found: Match | undefined;
    // requests read from a file carry a hash of their params: only those that may be equal are read again
    let liveHash: number | undefined;
    const mayEqual = (e: BookEntry): boolean => e.request.paramsHash === undefined || e.request.paramsHash === (liveHash ??= paramsHash(live));
    const exact = all.filter((e) => mayEqual(e) && deepEqual(bareParams(paramsOf(e.request.msg)), live));
    const ex = pick(exact);
    if (ex) found = { entry: ex, how: 'exact' };
    else if (this.opts.byTarget && targetParam(method) !== undefined) {
      const target = targetOf(method, params);
      const same = pick(all.filter((e) => e.request.target === target));
      if (same && target !== undefined) found = { entry: same, how: 'target' };
    } else {
      const any = pick(all);
      if (any) found = { entry: any, how: 'method' };
    }
    if (found) found.entry.used++;
    return found;
  }
}
