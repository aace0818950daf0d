/**
 * The list of every session of every log, newest first: server, state, counts and a latency sparkline,
 * filtered by server. Rebuilt from the cards when they change (at most once a frame). Browser code.
 */
import type { SessionCard } from '../live-row.js';
import { el, option } from '../../session-view/page/dom.js';
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

/** Draws the cards into `root`. */
export function renderSessionList(root: HTMLElement, cards: readonly SessionCard[], server: string, selected: string | null): void {
  root.textContent = '';
  const shown = cards.filter((c) => !server || serverName(c) === server);
  if (shown.length === 0) {
    root.appendChild(el('p', 'empty', cards.length === 0 ? 'No sessions yet: start a server through mcp-tap.' : 'No session of this server.'));
    return;
  }
  for (const c of shown) {
    const key = cardKey(c);
    const item = el('button', `card state-${c.state}${key === selected ? ' sel' : ''}`);
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
    root.appendChild(item);
    drawSparkline(spark, c.latency, c.errors > 0);
  }
}
