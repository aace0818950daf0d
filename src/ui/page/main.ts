/**
 * The live page: wires the event stream, the session list, and the selected session's waterfall,
 * filters, message list and body view. Everything that arrives is queued and applied once per animation
 * frame, so a thousand messages a second cost one layout per frame. Errors are shown on the page.
 */
import type { LiveEvent, LiveRow, SessionCard } from '../live-row.js';
import { fetchBody, fetchRows, subscribe } from './api.js';
import { byId, el, option, vis } from '../../report/page/dom.js';
import { fmtMs } from '../../report/page/format.js';
import { MessageList } from './message-list.js';
import { cardKey, fillServers, renderSessionList, serverName, stateText } from './session-list.js';
import { NO_FILTER, SessionRows, type Outcome, type RowFilter } from './session-rows.js';
import { drawWaterfall } from './waterfall.js';

interface Selection {
  key: string;
  log: number;
  session: string;
  rows: SessionRows;
  /** Rows that arrived while the history was loading. */
  early: LiveRow[] | null;
  /** Rows the server did not send this page to keep up (a flood); reloading the session brings them. */
  skipped: number;
}

const cards = new Map<string, SessionCard>();
let sel: Selection | null = null;
/** The page shows the newest live session, and moves on to a newer one as it starts, until the person picks one. */
let following = true;
let filter: RowFilter = { ...NO_FILTER };
let reveal = false;
let detailSeq: number | null = null;
let methodCount = -1;
let findingCount = -1;
const dirty = { cards: false, rows: false };
let frame = 0;
let shownIdx: number[] = [];
/** Rows of the selection already run through the filter (new rows are filtered on their own). */
let filteredUpTo = 0;
let lastWaterfall = 0;
let waterfallLater = 0;
/** The waterfall of a huge session costs milliseconds: redrawn at most this often while rows stream in. */
const WATERFALL_MS = 250;

const ui = {
  conn: byId('conn'),
  problems: byId('problems'),
  server: byId<HTMLSelectElement>('f-server'),
  list: byId('session-list'),
  head: byId('session-head'),
  wf: byId<HTMLCanvasElement>('waterfall'),
  method: byId<HTMLSelectElement>('f-method'),
  dir: byId<HTMLSelectElement>('f-dir'),
  outcome: byId<HTMLSelectElement>('f-outcome'),
  finding: byId<HTMLSelectElement>('f-finding'),
  count: byId('f-count'),
  reveal: byId<HTMLInputElement>('reveal'),
  detailHead: byId('detail-head'),
  detailBody: byId('detail-body'),
};

const messages = new MessageList(byId('list'), byId('list-spacer'), (row) => void showBody(row.s));

/** Shows a problem to the person (and keeps it until they close the page). */
function problem(text: string): void {
  ui.problems.hidden = false;
  ui.problems.appendChild(el('div', 'problem', vis(text)));
}

function schedule(): void {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    try {
      flush();
    } catch (err) {
      problem(`the page failed to draw: ${(err as Error).message}`);
    }
  });
}

function sortedCards(): SessionCard[] {
  return [...cards.values()].sort((a, b) => b.start - a.start || a.log - b.log);
}

function flush(): void {
  if (dirty.cards) {
    dirty.cards = false;
    const all = sortedCards();
    fillServers(ui.server, all);
    renderSessionList(ui.list, all, ui.server.value, sel?.key ?? null);
    renderHead();
  }
  if (dirty.rows && sel) {
    dirty.rows = false;
    refreshOptions(sel.rows);
    // an outcome filter can change its mind about old rows (their answer arrived): then filter them all again
    if (filter.outcome || filteredUpTo === 0) {
      shownIdx = sel.rows.filtered(filter);
    } else {
      for (const i of sel.rows.filtered(filter, filteredUpTo)) shownIdx.push(i);
    }
    filteredUpTo = sel.rows.rows.length;
    messages.show(sel.rows, shownIdx);
    const n = sel.rows.rows.length;
    ui.count.textContent = shownIdx.length === n ? `${n} messages` : `${shownIdx.length} of ${n} messages`;
    const now = performance.now();
    if (now - lastWaterfall >= WATERFALL_MS) {
      lastWaterfall = now;
      drawWaterfall(ui.wf, sel.rows.bars, sel.rows.start, sel.rows.end, Date.now());
    } else if (!waterfallLater) {
      // draw the latest rows too, once the interval has passed
      waterfallLater = window.setTimeout(() => {
        waterfallLater = 0;
        dirty.rows = true;
        schedule();
      }, WATERFALL_MS);
    }
  }
}

function renderHead(): void {
  ui.head.textContent = '';
  const c = sel ? cards.get(sel.key) : undefined;
  if (!sel || !c) {
    ui.head.appendChild(
      el('p', 'empty', following ? 'No live session yet: the newest one opens here as it starts. Or pick a session on the left.' : 'Pick a session on the left.'),
    );
    if (!following) ui.head.appendChild(followButton());
    return;
  }
  if (following) ui.head.appendChild(el('span', 'follow on', 'following the newest live session'));
  ui.head.appendChild(el('h2', undefined, vis(serverName(c))));
  ui.head.appendChild(el('span', `state s-${c.state}`, stateText(c)));
  ui.head.appendChild(el('span', 'meta', `${vis(c.session)} · ${vis(c.file)} · ${c.records} records · ${c.requests} requests · ${c.errors} errors · ${c.findings} findings`));
  if (sel.skipped > 0) ui.head.appendChild(skippedNote(sel.skipped));
  if (!following) ui.head.appendChild(followButton());
}

/** Says how many rows this page missed in a flood, with a button that loads the session again (all of them). */
function skippedNote(n: number): HTMLElement {
  const box = el('span', 'skipped', `${n.toLocaleString('en-US')} rows skipped to keep up `);
  const b = el('button', 'follow', 'Reload the session');
  b.type = 'button';
  b.id = 'reload';
  b.addEventListener('click', () => {
    if (sel) void select(sel.key);
  });
  box.appendChild(b);
  return box;
}

function followButton(): HTMLElement {
  const b = el('button', 'follow', 'Follow the newest live session');
  b.type = 'button';
  b.id = 'follow';
  b.addEventListener('click', () => {
    following = true;
    dirty.cards = true;
    followNewest();
    schedule();
  });
  return b;
}

/** While following: selects the newest running session when it is not the one shown. */
function followNewest(): void {
  if (!following) return;
  const newest = sortedCards().find((c) => c.state === 'running');
  if (newest && cardKey(newest) !== sel?.key) void select(cardKey(newest));
}

function refreshOptions(rows: SessionRows): void {
  let n = 0;
  for (const t of rows.methods.values()) n += t.size;
  if (n !== methodCount) {
    methodCount = n;
    const keep = ui.method.value;
    ui.method.textContent = '';
    option(ui.method, '', 'All methods and tools');
    for (const m of [...rows.methods.keys()].sort()) {
      const targets = rows.methods.get(m)!;
      let total = 0;
      for (const c of targets.values()) total += c;
      option(ui.method, m, `${vis(m)} (${total})`);
      for (const g of [...targets.keys()].sort()) if (g) option(ui.method, `${m}\u0000${g}`, `\u00a0\u00a0\u00a0${vis(g)} (${targets.get(g)})`);
    }
    ui.method.value = keep;
    if (ui.method.value !== keep) ui.method.value = '';
  }
  if (rows.findings.size !== findingCount) {
    findingCount = rows.findings.size;
    const keep = ui.finding.value;
    ui.finding.textContent = '';
    option(ui.finding, '', 'Any findings or none');
    option(ui.finding, '*', 'With findings');
    for (const [code, c] of [...rows.findings].sort()) option(ui.finding, code, `${vis(code)} (${c})`);
    ui.finding.value = keep;
  }
}

async function select(key: string): Promise<void> {
  const c = cards.get(key);
  if (!c) return;
  const s: Selection = { key, log: c.log, session: c.session, rows: new SessionRows(), early: [], skipped: 0 };
  sel = s;
  methodCount = -1;
  findingCount = -1;
  filteredUpTo = 0;
  lastWaterfall = 0;
  detailSeq = null;
  ui.detailHead.textContent = 'Click a message to see its body.';
  ui.detailBody.textContent = '';
  dirty.cards = true;
  dirty.rows = true;
  schedule();
  try {
    await fetchRows(c.log, c.session, (rows) => {
      if (sel !== s) return;
      s.rows.add(rows);
      dirty.rows = true;
      schedule();
    });
    if (sel !== s) return;
    s.rows.add(s.early ?? []);
  } catch (err) {
    problem((err as Error).message);
  } finally {
    s.early = null;
    dirty.rows = true;
    schedule();
  }
}

async function showBody(seq: number): Promise<void> {
  if (!sel) return;
  detailSeq = seq;
  const s = sel;
  ui.detailHead.textContent = `Loading #${seq}…`;
  try {
    const answer = await fetchBody(s.log, s.session, seq, reveal);
    if (sel !== s || detailSeq !== seq) return;
    ui.detailHead.textContent = '';
    ui.detailHead.appendChild(el('b', undefined, `#${seq}`));
    ui.detailHead.appendChild(
      el('span', answer.redacted ? 'redacted' : 'revealed', answer.redacted ? ' redacted like export: secrets read [REDACTED:…]' : ' REVEALED: as logged, secrets included (this tab only)'),
    );
    // the message itself (or the raw line); events show their fields
    const r = answer.record as { msg?: unknown; raw?: unknown };
    const body = r.msg !== undefined ? r.msg : r.raw !== undefined ? r.raw : answer.record;
    ui.detailBody.textContent = vis(typeof body === 'string' ? body : JSON.stringify(body, null, 2));
  } catch (err) {
    ui.detailHead.textContent = `#${seq}: ${(err as Error).message}`;
  }
}

function onEvent(ev: LiveEvent): void {
  switch (ev.type) {
    case 'hello':
      cards.clear();
      for (const c of ev.cards) cards.set(cardKey(c), c);
      dirty.cards = true;
      if (sel && !cards.has(sel.key)) sel = null;
      followNewest();
      break;
    case 'cards':
      for (const c of ev.cards) cards.set(cardKey(c), c);
      dirty.cards = true;
      followNewest();
      break;
    case 'rows':
      if (sel && sel.log === ev.log && sel.session === ev.session) {
        if (sel.early) sel.early.push(...ev.rows);
        else if (sel.rows.add(ev.rows) > 0) dirty.rows = true;
      }
      break;
    case 'skipped':
      if (sel && sel.log === ev.log && sel.session === ev.session) {
        sel.skipped += ev.rows;
        dirty.cards = true;
      }
      break;
    case 'problem':
      problem(ev.text);
      break;
  }
  schedule();
}

function readFilter(): void {
  filteredUpTo = 0;
  lastWaterfall = 0;
  filter = { method: ui.method.value, dir: ui.dir.value, outcome: ui.outcome.value as '' | Outcome, finding: ui.finding.value };
  dirty.rows = true;
  schedule();
}

function init(): void {
  for (const s of [ui.method, ui.dir, ui.outcome, ui.finding]) s.addEventListener('change', readFilter);
  ui.server.addEventListener('change', () => {
    dirty.cards = true;
    schedule();
  });
  ui.list.addEventListener('click', (ev) => {
    const card = ev.target instanceof Element ? ev.target.closest<HTMLElement>('.card') : null;
    const key = card?.dataset['key'];
    if (key === undefined) return;
    // the person chose: stop following (the header offers to follow again)
    following = false;
    void select(key);
  });
  ui.reveal.checked = false;
  ui.reveal.addEventListener('change', () => {
    reveal = ui.reveal.checked;
    document.body.classList.toggle('revealing', reveal);
    if (detailSeq !== null) void showBody(detailSeq);
  });
  window.addEventListener('error', (ev) => problem(`page error: ${ev.message}`));
  window.addEventListener('unhandledrejection', (ev) => problem(`page error: ${String((ev.reason as Error | undefined)?.message ?? ev.reason)}`));
  window.addEventListener('resize', () => {
    dirty.rows = true;
    schedule();
  });
  subscribe(onEvent, (connected) => {
    ui.conn.textContent = connected ? 'live' : 'disconnected: retrying…';
    ui.conn.className = connected ? 'conn on' : 'conn off';
  });
  renderHead();
}

/** A small API for tests and for people poking at the page from the console. */
const api = {
  ready: false,
  cards: () => sortedCards().map((c) => ({ server: serverName(c), session: c.session, state: c.state, requests: c.requests, latency: c.latency.length })),
  selected: () => (sel ? { log: sel.log, session: sel.session } : null),
  following: () => following,
  listed: () => messages.seqs(),
  rowCount: () => sel?.rows.rows.length ?? 0,
  skipped: () => sel?.skipped ?? 0,
  lastRowTime: () => (sel && sel.rows.rows.length > 0 ? sel.rows.end : undefined),
  latencyText: (seq: number) => fmtMs(sel?.rows.answerTo(seq)?.d),
};
(window as unknown as { __live: typeof api }).__live = api;
init();
api.ready = true;
