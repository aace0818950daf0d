/**
 * One request as the analysis remembers it, from the request to its answer: the entry the pending table
 * (pairing.ts), the answered ring (answered-ring.ts) and progress links (progress.ts) share. Types only.
 */
import type { RequestId } from '../protocol/jsonrpc.js';

/** An open multi-round exchange (2026-07-28 input_required → retry). */
export interface Exchange {
  /** Seq of the first request of the exchange. */
  firstSeq: number;
  firstTime: number;
  method: string;
  target?: string;
  /** The requestState of the last input_required answer, echoed by the retry. */
  requestState?: string;
}

/** A task (a request answered with a CreateTaskResult), followed until a terminal status or its final result. */
export interface TaskEntry {
  taskId: string;
  /** Seq and time of the request that created the task (the call). */
  callSeq: number;
  callTime: number;
  method: string;
  /** Who sent the call (the requestor; the other side runs the task). */
  from: 'client' | 'server';
  /** The last status seen. */
  status: string;
  /** A terminal status or the final result was seen. */
  ended: boolean;
  /** The call (its id, and its progress token, active until the task ends). */
  call: PendingEntry;
}

/** One request as the analysis remembers it. */
export interface PendingEntry {
  id: RequestId;
  method: string;
  /** Seq of the record that carried the request (the batch record for batch elements). */
  seq: number;
  time: number;
  target?: string;
  /** `params._meta.progressToken`, when the request asked for progress. */
  token?: RequestId;
  /** A notifications/cancelled referred to it. */
  cancelled?: boolean;
  /** This request retries an input_required answer. */
  exchange?: Exchange;
  /** The task this request belongs to (tasks/get, tasks/result, …, or `_meta` related-task). */
  task?: TaskEntry;
  /** Seq of the record that answered it, once answered. */
  answerSeq?: number;
  /** Dropped from the pending table because it was full. */
  evicted?: boolean;
  /** Set by the table while the entry is pending. */
  open?: boolean;
  /** The next request pending with the same id (FIFO). */
  next?: PendingEntry;
}
