/**
 * 2026-07-28 multi round-trip requests: an `input_required` answer opens an exchange; the client's retry
 * (a new request with `params.inputResponses` and/or `params.requestState`) continues it, so the final
 * answer can report the latency of the whole exchange. Bounded: the oldest open exchanges are dropped.
 */
import type { Exchange } from './request-entry.js';

export class Exchanges {
  private readonly open: Exchange[] = [];

  constructor(private readonly capacity: number) {}

  /** An input_required answer (re)opens the exchange. */
  add(ex: Exchange): void {
    this.open.push(ex);
    if (this.open.length > this.capacity) this.open.shift();
  }

  /**
   * The exchange a retry continues: the newest one whose requestState it echoes, or without a
   * requestState the newest one with the same method and target. Removed from the open list.
   */
  match(method: string, target: string | undefined, requestState: string | undefined): Exchange | undefined {
    for (let i = this.open.length - 1; i >= 0; i--) {
      const ex = this.open[i]!;
      const hit =
        requestState !== undefined
          ? ex.requestState === requestState
          : ex.requestState === undefined && ex.method === method && ex.target === target;
      if (hit) {
        this.open.splice(i, 1);
        return ex;
      }
    }
    return undefined;
  }
}
