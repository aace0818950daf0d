/**
 * The details of an open message, under its line in the list: what it answers or what answered it,
 * its findings with their text, a batch's elements, why it was shortened, and the body (pretty-printed
 * and highlighted JSON, or the text). The body comes from the page's source: at once (the report) or
 * when fetched (the live UI). Browser code.
 */
import type { SessionFold } from '../fold.js';
import { fmtBytes, fmtMs } from '../format.js';
import type { SessionRow } from '../row.js';
import { DIR_TEXT, fmtOff, idText, vis } from '../text.js';
import { el } from './dom.js';
import type { BodyText } from './source.js';
import { pill } from './tooltip.js';

function seqLink(seq: number, text?: string): HTMLElement {
  const a = el('a', 'goto', text ?? `#${seq}`);
  // a plain string (no template): the report's markup test reads every href as an in-page anchor
  a.href = '#seq-' + String(seq);
  a.setAttribute('data-goto', String(seq));
  return a;
}

const JSON_TOKEN = /("(?:[^"\\\n]|\\.)*")(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

/** JSON text with its keys, strings, literals and numbers in colour (as text nodes, never markup). */
function highlighted(pre: HTMLElement, text: string): void {
  if (text.length > 300000) {
    pre.textContent = text;
    return;
  }
  let last = 0;
  let m: RegExpExecArray | null;
  JSON_TOKEN.lastIndex = 0;
  while ((m = JSON_TOKEN.exec(text)) !== null) {
    if (m.index > last) pre.appendChild(document.createTextNode(text.slice(last, m.index)));
    const cls = m[1] ? (m[2] ? 'j-k' : 'j-s') : m[3] ? 'j-l' : 'j-n';
    pre.appendChild(el('span', cls, m[1] ? m[1] : m[0]));
    if (m[2]) pre.appendChild(document.createTextNode(m[2]));
    last = m.index + m[0].length;
  }
  if (last < text.length) pre.appendChild(document.createTextNode(text.slice(last)));
}

function links(fold: SessionFold, r: SessionRow, live: boolean): HTMLElement {
  const d = el('div', 'links');
  const text = (s: string) => d.appendChild(document.createTextNode(s));
  text(`${DIR_TEXT[r.f]} \u00b7 ${fmtOff(r.t)} \u00b7 `);
  if (r.k === 'request') {
    const bar = fold.wf.request(r.s);
    if (bar?.answerSeq !== undefined) {
      text('answered by ');
      d.appendChild(seqLink(bar.answerSeq));
    } else text(bar?.outcome === 'cancelled' ? 'cancelled, never answered' : live ? 'no answer yet' : 'never answered');
  }
  if ((r.k === 'response' || r.k === 'error') && r.r !== undefined) {
    text('answers ');
    d.appendChild(seqLink(r.r));
    if (r.d !== undefined) text(` after ${fmtMs(r.d)} `);
  }
  if (r.k === 'notification' && r.r !== undefined) {
    text('refers to ');
    d.appendChild(seqLink(r.r));
  }
  if (r.ro !== undefined) {
    text(' retry of ');
    d.appendChild(seqLink(r.ro));
  }
  if (r.xd !== undefined) text(` \u00b7 whole exchange ${fmtMs(r.xd)}`);
  return d;
}

function items(fold: SessionFold, r: SessionRow): HTMLElement {
  const tb = el('table', 'items');
  const hr = el('tr');
  for (const c of ['#', 'kind', 'id', 'method', 'target', 'answer']) hr.appendChild(el('th', null, c));
  tb.appendChild(hr);
  (r.it ?? []).forEach((x, i) => {
    const tr = el('tr');
    tr.appendChild(el('td', null, String(i + 1)));
    tr.appendChild(el('td', null, x.kind));
    tr.appendChild(el('td', null, idText(x.id)));
    tr.appendChild(el('td', null, vis(x.method ?? '')));
    tr.appendChild(el('td', null, vis(x.target ?? '')));
    const td = el('td');
    const bar = x.kind === 'request' ? fold.wf.request(r.s, i) : undefined;
    if (bar) td.appendChild(pill(bar.outcome));
    if (bar?.answerSeq !== undefined) {
      td.appendChild(document.createTextNode(' '));
      td.appendChild(seqLink(bar.answerSeq));
    }
    if (x.reqSeq !== undefined) {
      td.appendChild(document.createTextNode('answers '));
      td.appendChild(seqLink(x.reqSeq));
    }
    tr.appendChild(td);
    tb.appendChild(tr);
  });
  return tb;
}

/** The body itself, or a line saying it is on its way. */
export function bodyBlock(seq: number, body: BodyText | undefined, failed?: string): HTMLElement {
  const box = el('div', 'body-box');
  if (failed !== undefined) {
    box.appendChild(el('div', 'body-head err', `#${seq}: ${failed}`));
    return box;
  }
  if (!body) {
    box.appendChild(el('div', 'body-head', `Loading #${seq}\u2026`));
    return box;
  }
  if (body.head) {
    const h = el('div', 'body-head');
    h.appendChild(el('b', undefined, `#${seq}`));
    h.appendChild(el('span', body.head.cls, ` ${body.head.text}`));
    box.appendChild(h);
  }
  const pre = el('pre', 'body');
  if (body.json) highlighted(pre, body.text);
  else pre.textContent = body.text;
  box.appendChild(pre);
  return box;
}

/** The details of row `r`; `body` is the block the list made from the source's answer. */
export function detail(fold: SessionFold, r: SessionRow, live: boolean, body: HTMLElement): HTMLElement {
  const d = el('div', 'ldetail');
  // clicks inside the details leave the row open; a link to another message still goes there
  d.addEventListener('click', (ev) => {
    if (!(ev.target instanceof Element && ev.target.closest('a.goto'))) ev.stopPropagation();
  });
  d.appendChild(links(fold, r, live));
  if (r.n) {
    const nt = el('div', 'notes');
    for (const n of r.n) {
      const l = el('div');
      l.appendChild(el('code', null, vis(n.code)));
      l.appendChild(document.createTextNode(` ${vis(n.text)}`));
      nt.appendChild(l);
    }
    d.appendChild(nt);
  }
  if (r.k === 'batch' && r.it && r.it.length) d.appendChild(items(fold, r));
  if (r.x?.includes('T')) d.appendChild(el('div', 'short', `The log holds a shortened copy of this line (${fmtBytes(r.b)} on the wire).`));
  if (r.x?.includes('P')) d.appendChild(el('div', 'short', 'The stream ended before this line\u2019s newline.'));
  if (r.yb !== undefined) d.appendChild(el('div', 'short', `Shortened in this report: ${r.yb} characters in full; the log has all of it.`));
  d.appendChild(body);
  return d;
}
