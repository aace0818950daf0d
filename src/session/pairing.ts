/**
 * Requests waiting for their answer, one table per sending side. Ids compare with their type (Map keys:
 * `1` ≠ `"1"`); when one id is pending twice, answers pair first in, first out. Memory is bounded: past
 * `capacity` pending entries the oldest is evicted (and still paired if its answer comes while it is
 * remembered), and answered requests are remembered (answered-ring.ts) for `duplicate-answer`, cancels
 * that raced their answer and id reuse.
 */
import type { RequestId } from '../protocol/jsonrpc.js';
import { AnsweredRing } from './answered-ring.js';
import { BoundedMap } from './bounded-map.js';
import { PendingIndex } from './pending-index.js';
import type { PendingEntry } from './request-entry.js';

/** The entry types, for the modules that pair (session.ts) without reaching into request-entry.ts. */
export type { Exchange, PendingEntry } from './request-entry.js';

/** What an answer's id matched. */
export type Match =
  | { status: 'pending'; entry: PendingEntry }
  | { status: 'evicted'; entry: PendingEntry }
  | { status: 'answered'; entry: PendingEntry }
  | { status: 'unknown' };

const UNKNOWN: Match = { status: 'unknown' };

const isOpen = (e: PendingEntry): boolean => e.open === true;

/** Pending and recently answered requests of one side. */
export class RequestTable {
  /** The oldest pending entry of each id (the head of its chain). */
  private readonly pending: PendingIndex<PendingEntry>;
  /** Answered requests, remembered for duplicate answers, late cancels and id reuse. */
  private readonly done: AnsweredRing;
  /** Requests evicted from the table while unanswered: still paired if their answer comes. */
  private readonly evictedOpen: BoundedMap<RequestId, PendingEntry>;
  /** Pending entries in arrival order (closed ones are skipped, and swept out now and then). */
  private order: PendingEntry[] = [];
  private orderHead = 0;
  private count = 0;
  /** Pending entries dropped because the table was full. */
  evicted = 0;

  constructor(private readonly capacity: number, doneCapacity = Math.max(capacity, 1024)) {
    this.pending = new PendingIndex(capacity + 1);
    this.done = new AnsweredRing(doneCapacity);
    this.evictedOpen = new BoundedMap(doneCapacity);
  }

  /** Requests waiting for an answer. */
  get size(): number {
    return this.count;
  }

  /**
   * The id looked up last and its pending head: a request is looked up before it is added, and an
   * answer before it is taken, so the second lookup is free. Kept in step with every change of `pending`.
   */
  private lookId: RequestId | undefined;
  private lookHead: PendingEntry | undefined;

  private headOf(id: RequestId): PendingEntry | undefined {
    if (id === this.lookId) return this.lookHead;
    const head = this.pending.get(id);
    this.lookId = id;
    this.lookHead = head;
    return head;
  }

  /** The newest pending request with this id, if any (for id-reused). */
  pendingLast(id: RequestId): PendingEntry | undefined {
    let e = this.headOf(id);
    while (e?.next) e = e.next;
    return e;
  }

  /** The oldest pending request with this id, if any (the one an answer or a cancel refers to). */
  pendingFirst(id: RequestId): PendingEntry | undefined {
    return this.headOf(id);
  }

  /** The last answered (or evicted) request with this id, while it is remembered. */
  recent(id: RequestId): PendingEntry | undefined {
    // most clients number their requests upwards: a new id above every remembered one needs no lookup
    if (typeof id === 'number' && id > this.doneMax) return undefined;
    return this.evictedOpen.get(id) ?? this.done.get(id);
  }

  /** The largest numeric id ever put in `done` (-Infinity when none). */
  private doneMax = -Infinity;

  /** An answered request (answered by the record `answerSeq`), or with `answerSeq` null one evicted unanswered. */
  private remember(entry: PendingEntry, answerSeq: number | undefined | null): void {
    const id = entry.id;
    if (typeof id === 'number' && id > this.doneMax) this.doneMax = id;
    if (answerSeq === null) {
      this.done.delete(id);
      this.evictedOpen.set(id, entry);
    } else {
      this.evictedOpen.delete(id);
      this.done.add(entry, answerSeq);
    }
  }

  /** Tracks a request; returns the entry evicted to make room, if any. */
  add(entry: PendingEntry): PendingEntry | undefined {
    entry.open = true;
    this.order.push(entry);
    const head = this.headOf(entry.id);
    if (head) {
      let last = head;
      while (last.next) last = last.next;
      last.next = entry;
    } else {
      this.pending.set(entry.id, entry);
      this.lookHead = entry;
    }
    this.count++;
    this.skipClosed();
    if (this.order.length - this.orderHead > 2 * this.count + 1024) this.sweep();
    if (this.count <= this.capacity) return undefined;
    // skipClosed left the oldest open entry at the front (the one just added at the latest); it is
    // always the head of its id's chain (chains are in arrival order), and the next skipClosed lets it go
    const victim = this.order[this.orderHead]!;
    this.unlinkHead(victim);
    victim.evicted = true;
    this.remember(victim, null);
    this.evicted++;
    return victim;
  }

  /** The request `take(id)` would pair with, without taking it. */
  peek(id: RequestId): PendingEntry | undefined {
    return this.headOf(id) ?? this.recent(id);
  }

  /** Pairs an answer (the record `answerSeq`) with the oldest pending request of that id, or a remembered one. */
  take(id: RequestId, answerSeq?: number): Match {
    const head = this.headOf(id);
    if (head) {
      this.unlinkHead(head);
      this.remember(head, answerSeq);
      return { status: 'pending', entry: head };
    }
    const d = this.recent(id);
    if (!d) return UNKNOWN;
    if (d.evicted) {
      // evicted while pending (only those are marked): answered after all
      d.evicted = false;
      this.remember(d, answerSeq);
      return { status: 'evicted', entry: d };
    }
    return { status: 'answered', entry: d };
  }

  /** All pending requests in arrival order (a batch's elements share its seq: only this order tells them apart). */
  list(): PendingEntry[] {
    return this.order.slice(this.orderHead).filter(isOpen);
  }

  private unlinkHead(head: PendingEntry): PendingEntry {
    if (head.next) this.pending.set(head.id, head.next);
    else this.pending.delete(head.id);
    this.lookId = head.id;
    this.lookHead = head.next;
    head.next = undefined;
    head.open = false;
    this.count--;
    return head;
  }

  /**
   * Lets go of the answered entries at the front of the arrival order as soon as they are answered
   * (answers mostly come in order): kept there until the next sweep, thousands of them lived long
   * enough to be promoted to the old generation, and collecting them there cost helper-thread marking.
   */
  private skipClosed(): void {
    const order = this.order;
    let head = this.orderHead;
    while (head < order.length && order[head]!.open !== true) order[head++] = undefined as unknown as PendingEntry;
    this.orderHead = head;
    if (head >= 1024 && head * 2 >= order.length) {
      this.order = order.slice(head);
      this.orderHead = 0;
    }
  }

  /**
   * Drops closed entries from the arrival order (amortised: runs when they outnumber open ones). A
   * builtin walks the entries: a loop of our own here was compiled on the side (on-stack replacement)
   * in every busy session, for a function that runs once per thousand requests.
   */
  private sweep(): void {
    this.order = this.order.slice(this.orderHead).filter(isOpen);
    this.orderHead = 0;
  }
}
