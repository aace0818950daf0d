/**
 * The list of every session of every log, newest first: server, state, counts and a latency sparkline,
 * filtered by server. Updated in place from the cards when they change (at most once a frame). Browser code.
 */
import type { SessionCard } from '../live-row.js';
import { el, option, syncChildren } from '../../session-view/page/dom.js';
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

/** The parts of one card that change while its session runs. */
interface CardView {
  item: HTMLButtonElement;
  state: HTMLSpanElement;
  req: HTMLSpanElement;
  err: HTMLSpanElement;
  find: HTMLSpanElement;
  tok: HTMLSpanElement;
  spark: HTMLCanvasElement;
  /** The latency drawn last (the same array is not drawn again). */
  drawn: readonly number[] | null;
}

/**
 * The cards in `root`, updated in place: a card stays the same element while its session changes, so a
 * click whose button is held while a live session redraws its card still lands (a click needs the same
 * element under the press and the release).
 */
export class SessionList {
  private readonly views = new Map<string, CardView>();
  private readonly empty = el('p', 'empty');

  constructor(private readonly root: HTMLElement) {}

  /** Shows `cards` (newest first) of `server` ('' for all), `selected` marked. */
  render(cards: readonly SessionCard[], server: string, selected: string | null): void {
    const shown = cards.filter((c) => !server || serverName(c) === server);
    const keep = new Set(shown.map(cardKey));
    for (const key of this.views.keys()) if (!keep.has(key)) this.views.delete(key);
    if (shown.length === 0) {
      this.empty.textContent = cards.length === 0 ? 'No sessions yet: start a server through mcp-tap.' : 'No session of this server.';
      syncChildren(this.root, [this.empty]);
      return;
    }
    const views = shown.map((c) => {
      const key = cardKey(c);
      let v = this.views.get(key);
      if (!v) {
        v = makeCard(c, key);
        this.views.set(key, v);
      }
      update(v, c, key === selected);
      return v;
    });
    syncChildren(this.root, views.map((v) => v.item));
    // drawn once laid out (the canvas takes its size from the page), and only when the latencies changed
    shown.forEach((c, i) => {
      const v = views[i]!;
      if (v.drawn === c.latency) return;
      v.drawn = c.latency;
      drawSparkline(v.spark, c.latency, c.errors > 0);
    });
  }
}

function makeCard(c: SessionCard, key: string): CardView {
  const item = el('button', 'card');
  item.type = 'button';
  item.dataset['key'] = key;
  item.dataset['server'] = serverName(c);
  item.dataset['session'] = c.session;
  const top = el('div', 'card-top');
  top.appendChild(el('span', 'server', vis(serverName(c))));
  const state = top.appendChild(el('span'));
  item.appendChild(top);
  item.appendChild(el('div', 'meta', `${fmtDate(c.start)} · ${vis(c.session.slice(0, 17))}`));
  const counts = el('div', 'counts');
  const req = counts.appendChild(el('span', 'n-req'));
  const err = counts.appendChild(el('span'));
  const find = counts.appendChild(el('span'));
  const tok = counts.appendChild(el('span', 'n-tok'));
  const spark = el('canvas', 'spark');
  spark.title = 'latency of the latest answers';
  counts.appendChild(spark);
  item.appendChild(counts);
  return { item, state, req, err, find, tok, spark, drawn: null };
}

/** Sets an element's text or class only when it changed (no layout work for what did not). */
function set(e: HTMLElement, cls: string, text: string): void {
  if (e.className !== cls) e.className = cls;
  if (e.textContent !== text) e.textContent = text;
}

function update(v: CardView, c: SessionCard, selected: boolean): void {
  const cls = `card state-${c.state}${selected ? ' sel' : ''}`;
  if (v.item.className !== cls) v.item.className = cls;
  set(v.state, `state s-${c.state}`, stateText(c));
  set(v.req, 'n-req', `${c.requests} req`);
  set(v.err, c.errors ? 'n-err bad' : 'n-err', `${c.errors} err`);
  set(v.find, c.findings ? 'n-find warn' : 'n-find', `${c.findings} findings`);
  v.tok.hidden = !c.tokens;
  if (c.tokens) {
    set(v.tok, 'n-tok', `${c.tokens.context.toLocaleString('en-US')} tok`);
    v.tok.title = `tokens before the first message (tool definitions and instructions): ${c.tokens.context.toLocaleString('en-US')}; tool results so far: ${c.tokens.results.toLocaleString('en-US')} (o200k_base; an estimate for other models)`;
  }
}
