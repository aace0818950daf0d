/**
 * Progress tokens of active requests of one side (`params._meta.progressToken`), so that
 * notifications/progress from the other side link to their request. Tokens compare with their type.
 * A tools/call answered with a task (CreateTaskResult) keeps its token: progress goes on for the task.
 */
import type { RequestId } from '../protocol/jsonrpc.js';
import { BoundedMap } from './bounded-map.js';
import type { PendingEntry } from './request-entry.js';

export interface ProgressLink {
  entry: PendingEntry;
  /** The last progress value seen for the token. */
  last?: number;
}

export class ProgressTable {
  private readonly links: BoundedMap<RequestId, ProgressLink>;

  constructor(capacity: number) {
    this.links = new BoundedMap(capacity);
  }

  /** Registers a token; returns the active request that already carries it, if any. */
  register(token: RequestId, entry: PendingEntry): PendingEntry | undefined {
    const prev = this.links.get(token);
    this.links.set(token, { entry });
    return prev?.entry;
  }

  get(token: RequestId): ProgressLink | undefined {
    return this.links.get(token);
  }

  /** The request answered: its token is no longer active (unless a newer request took it over). */
  release(token: RequestId, entry: PendingEntry): void {
    if (this.links.get(token)?.entry === entry) this.links.delete(token);
  }
}
