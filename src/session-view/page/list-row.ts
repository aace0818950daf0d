/**
 * One line of the message list: time since the start, seq, direction, kind, method and target (the
 * text itself for stderr and invalid lines), findings, id, how it ended or what it answers, size.
 * Browser code.
 */
import { isBad } from '../filter.js';
import type { SessionFold } from '../fold.js';
import { fmtBytes, fmtMs } from '../format.js';
import type { SessionRow } from '../row.js';
import { clip, DIR, fmtOff, idText, summaryText, vis } from '../text.js';
import { el } from './dom.js';
import { pill } from './tooltip.js';

function what(r: SessionRow): HTMLElement {
  const m = el('span', 'c-m');
  if (r.k === 'stderr' || r.k === 'invalid') {
    const text = r.y === undefined ? '' : r.k === 'invalid' && !r.yt ? JSON.stringify(r.y) : r.y === null ? '' : String(r.y);
    m.appendChild(el('span', 'rawtxt', clip(vis(text), 200)));
  } else if (r.k === 'event') m.appendChild(el('span', null, r.e ?? ''));
  else if (r.k === 'batch') m.appendChild(el('span', null, (r.it ?? []).map((x) => vis(x.method ?? x.kind)).join(', ')));
  else {
    m.appendChild(el('span', null, vis(r.m ?? '')));
    if (r.g !== undefined) m.appendChild(el('span', 'tg', vis(clip(r.g, 120))));
  }
  if (r.n) m.appendChild(el('span', 'note-b', `\u26a0 ${r.n.map((n) => vis(n.code)).join(', ')}`));
  return m;
}

/** How a request ended (pill, latency, its answer) or what another row says. */
function status(fold: SessionFold, r: SessionRow): HTMLElement {
  const x = el('span', 'c-x');
  const summary = summaryText(fold, r);
  let st = '';
  if (r.k === 'request') {
    const bar = fold.wf.request(r.s);
    if (bar) {
      x.appendChild(pill(bar.outcome));
      x.appendChild(document.createTextNode(' '));
      const ans = bar.answerSeq !== undefined ? fold.row(bar.answerSeq) : undefined;
      const ms = bar.task && bar.outcome !== 'running' ? bar.ms : ans?.d;
      if (ans) st = `${ms !== undefined ? `${fmtMs(ms)} ` : ''}\u2192 #${bar.answerSeq}`;
    } else if (r.i === null) st = 'id null: not tracked';
  } else if (r.k !== 'stderr' && r.k !== 'invalid') st = summary;
  x.appendChild(document.createTextNode(st));
  x.title = summary;
  return x;
}

/** The head line of row `r`; `open` and `selected` mark it. */
function listHead(fold: SessionFold, r: SessionRow): HTMLElement {
  const h = el('div', 'lhead');
  const t = el('span', 'c-t', fmtOff(r.t));
  h.appendChild(t);
  h.appendChild(el('span', 'c-s', `#${r.s}`));
  h.appendChild(el('span', 'c-d', DIR[r.f]));
  const kc = el('span', 'c-k');
  kc.appendChild(el('span', `k k-${r.k}`, r.k));
  h.appendChild(kc);
  h.appendChild(what(r));
  h.appendChild(el('span', 'c-i', r.i !== undefined ? `id ${idText(r.i)}` : ''));
  h.appendChild(status(fold, r));
  h.appendChild(el('span', 'c-b', fmtBytes(r.b)));
  return h;
}

/** The row element (its head; the list adds the details when it is open). */
export function listRow(fold: SessionFold, r: SessionRow, open: boolean, selected: boolean): HTMLElement {
  const e = el('div', `lrow${open ? ' open' : ''}${selected ? ' sel' : ''}${isBad(fold, r) ? ' bad' : ''}`);
  e.setAttribute('data-seq', String(r.s));
  e.setAttribute('data-kind', r.k);
  e.id = `seq-${r.s}`;
  e.appendChild(listHead(fold, r));
  return e;
}
