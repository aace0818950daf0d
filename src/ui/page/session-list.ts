/**
 * The list of every session of every log, newest first: server, state, counts and a latency sparkline,
 * filtered by server. Updated in place from the cards when they change (at most once a frame). Browser code.
 */
import type { SessionCard } from '../live-row.js';
import { el, morph, option, syncChildren } from '../../session-view/page/dom.js';
import { fmtDate } from '../../session-view/format.js';
import { vis } from '../../session-view/text.js';
import { drawSparkline } from './sparkline.js';

export function cardKey(c: { log: number; session: string }): string {
  return `${c.log}\u0000${c.session}`;
}

export function serverName(c: SessionCard): string {
  return c.server || c.file.replace(/\.jsonrpc\.log$/, '');
}

export function stateText(c: SessionCard): string {
  if (c.state === 'running') return 'running';
  if (c.state === 'exited') return `exited ${c.exitCode ?? '?'}`;
  return c.exitSignal ? `died (${c.exitSignal})` : 'died';
}

/** Fills the server filter with the servers seen (keeping the choice). */
export function fillServers(sel: HTMLSelectElement, cards: readonly SessionCard[]): void {
  const keep = sel.value;
  const names = [...new Set(cards.map(serverName))].sort();
  if (sel.options.length === names.length + 1) {
    const same = names.every((n, i) => sel.options[i + 1]?.value === n);
    if (same) return;
  }
  sel.textContent = '';
  option(sel, '', `All servers (${names.length})`);
  for (const n of names) option(sel, n, vis(n));
  sel.value = names.includes(keep) ? keep : '';
}

/**
 * The cards in `root`. A card already shown is updated in place (morph), not replaced: a live session
 * redraws its card several times a second, and a click needs the same element under the press and the
 * release.
 */
export class SessionList {
  /** The cards in the document by key. */
  private drawn = new Map<string, Element>();
  /** The latencies each sparkline shows (the same array is not drawn again). */
  private readonly sparks = new WeakMap<HTMLCanvasElement, readonly number[]>();
  private readonly empty = el('p', 'empty');

  constructor(private readonly root: HTMLElement) {}

  /** Shows `cards` (newest first) of `server` ('' for all), `selected` marked. */
  render(cards: readonly SessionCard[], server: string, selected: string | null): void {
    const shown = cards.filter((c) => !server || serverName(c) === server);
    const drawn = new Map<string, Element>();
    const items = shown.map((c) => {
      const key = cardKey(c);
      const fresh = cardOf(c, key, key === selected);
      const before = this.drawn.get(key);
      const item = before !== undefined ? morph(before, fresh) : fresh;
      drawn.set(key, item);
      return item;
    });
    this.drawn = drawn;
    if (items.length === 0) {
      this.empty.textContent = cards.length === 0 ? 'No sessions yet: start a server through mcp-tap.' : 'No session of this server.';
      items.push(this.empty);
    }
    syncChildren(this.root, items);
    // drawn once laid out (the canvas takes its size from the page), and only when the latencies changed
    shown.forEach((c, i) => {
      const canvas = items[i]!.querySelector<HTMLCanvasElement>('canvas.spark')!;
      if (this.sparks.get(canvas) === c.latency) return;
      this.sparks.set(canvas, c.latency);
      drawSparkline(canvas, c.latency, c.errors > 0);
    });
  }
}

/** The card of session `c`. */
function cardOf(c: SessionCard, key: string, selected: boolean): HTMLElement {
  const item = el('button', `card state-${c.state}${selected ? ' sel' : ''}`);
  item.type = 'button';
  item.dataset['key'] = key;
  item.dataset['server'] = serverName(c);
  item.dataset['session'] = c.session;
  const top = el('div', 'card-top');
  top.appendChild(el('span', 'server', vis(serverName(c))));
  top.appendChild(el('span', `state s-${c.state}`, stateText(c)));
  item.appendChild(top);
  item.appendChild(el('div', 'meta', `${fmtDate(c.start)} · ${vis(c.session.slice(0, 17))}`));
  const counts = el('div', 'counts');
  counts.appendChild(el('span', 'n-req', `${c.requests} req`));
  counts.appendChild(el('span', c.errors ? 'n-err bad' : 'n-err', `${c.errors} err`));
  counts.appendChild(el('span', c.findings ? 'n-find warn' : 'n-find', `${c.findings} findings`));
  if (c.tokens) {
    const tok = el('span', 'n-tok', `${c.tokens.context.toLocaleString('en-US')} tok`);
    tok.title = `tokens before the first message (tool definitions and instructions): ${c.tokens.context.toLocaleString('en-US')}; tool results so far: ${c.tokens.results.toLocaleString('en-US')} (o200k_base; an estimate for other models)`;
    counts.appendChild(tok);
  }
  const spark = el('canvas', 'spark');
  spark.title = 'latency of the latest answers';
  counts.appendChild(spark);
  item.appendChild(counts);
  return item;
}
