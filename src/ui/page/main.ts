/**
 * The live page: the event stream, the session list, and the selected session shown by the session
 * view (src/session-view/page) — the same waterfall, filters, list and bodies as the HTML report, fed
 * from the log's history and then the stream, with bodies fetched on demand. Everything that arrives is
 * applied once per animation frame. Errors are shown on the page.
 */
import type { SessionRow } from '../../session-view/row.js';
import { byId, el } from '../../session-view/page/dom.js';
import { SessionView } from '../../session-view/page/session-view.js';
import { fmtMs } from '../../session-view/format.js';
import { vis } from '../../session-view/text.js';
import type { LiveEvent, SessionCard } from '../live-row.js';
import { fetchRows, subscribe } from './api.js';
import { LiveBodies } from './live-source.js';
import { cardKey, fillServers, SessionList, serverName, stateText } from './session-list.js';

/** The session shown. */
interface Selection {
  key: string;
  log: number;
  session: string;
  origin: number;
  /** Rows that arrived while the history was loading. */
  early: SessionRow[] | null;
  /** Rows the server did not send this page to keep up (a flood); reloading the session brings them. */
  skipped: number;
}

/** The page's state besides the view's. */
const state = {
  cards: new Map<string, SessionCard>(),
  sel: null as Selection | null,
  /** Show the newest live session, and move on to a newer one as it starts, until the person picks one. */
  following: true,
  cardsDirty: false,
  frame: 0,
};

const ui = {
  conn: byId('conn'),
  problems: byId('problems'),
  server: byId<HTMLSelectElement>('f-server'),
  list: byId('session-list'),
  reveal: byId<HTMLInputElement>('reveal'),
};

const bodies = new LiveBodies();
const cardList = new SessionList(ui.list);
const view = new SessionView(bodies, { follow: true, redrawMs: 250 });

/** Shows a problem to the person (and keeps it until they close the page). */
function problem(text: string): void {
  ui.problems.hidden = false;
  ui.problems.appendChild(el('div', 'problem', vis(text)));
}

function schedule(): void {
  if (state.frame) return;
  state.frame = requestAnimationFrame(() => {
    state.frame = 0;
    try {
      if (state.cardsDirty) drawCards();
    } catch (err) {
      problem(`the page failed to draw: ${(err as Error).message}`);
    }
  });
}

function sortedCards(): SessionCard[] {
  return [...state.cards.values()].sort((a, b) => b.start - a.start || a.log - b.log);
}

function selectedCard(): SessionCard | undefined {
  return state.sel ? state.cards.get(state.sel.key) : undefined;
}

function drawCards(): void {
  state.cardsDirty = false;
  const all = sortedCards();
  fillServers(ui.server, all);
  cardList.render(all, ui.server.value, state.sel?.key ?? null);
  view.live = selectedCard()?.state === 'running';
  view.head.render(view.info, view.fold);
}

/** The head's own parts, made once and updated in place (a button rebuilt under a held press loses the click). */
const headParts = {
  following: el('span', 'follow on', 'following the newest live session'),
  state: el('span'),
  file: el('span', 'meta'),
  skipped: el('span', 'skipped'),
  skippedText: document.createTextNode(''),
  reload: el('button', 'follow', 'Reload the session'),
  follow: el('button', 'follow', 'Follow the newest live session'),
  empty: el('p', 'empty'),
};
headParts.follow.type = 'button';
headParts.follow.id = 'follow';
headParts.follow.addEventListener('click', () => {
  state.following = true;
  state.cardsDirty = true;
  followNewest();
  schedule();
});
// how many rows this page missed in a flood, with a button that loads the session again (all of them)
headParts.reload.type = 'button';
headParts.reload.id = 'reload';
headParts.reload.addEventListener('click', () => {
  if (state.sel) void select(state.sel.key);
});
headParts.skipped.append(headParts.skippedText, headParts.reload);

/** What the live page adds to the session view's head line. */
view.head.parts = {
  lead: () => (state.following ? [headParts.following] : []),
  tail: () => {
    const c = selectedCard();
    const out: Node[] = [];
    if (c) {
      headParts.state.className = `state s-${c.state}`;
      headParts.state.textContent = stateText(c);
      headParts.file.textContent = vis(c.file);
      out.push(headParts.state, headParts.file);
    }
    if (state.sel && state.sel.skipped > 0) {
      headParts.skippedText.data = `${state.sel.skipped.toLocaleString('en-US')} rows skipped to keep up `;
      out.push(headParts.skipped);
    }
    if (!state.following) out.push(headParts.follow);
    return out;
  },
  empty: () => {
    headParts.empty.textContent = state.following ? 'No live session yet: the newest one opens here as it starts. Or pick a session on the left.' : 'Pick a session on the left.';
    return state.following ? [headParts.empty] : [headParts.empty, headParts.follow];
  },
};

/** While following: selects the newest running session when it is not the one shown. */
function followNewest(): void {
  if (!state.following) return;
  const newest = sortedCards().find((c) => c.state === 'running');
  if (newest && cardKey(newest) !== state.sel?.key) void select(cardKey(newest));
}

async function select(key: string): Promise<void> {
  const c = state.cards.get(key);
  if (!c) return;
  const s: Selection = { key, log: c.log, session: c.session, origin: c.start, early: [], skipped: 0 };
  state.sel = s;
  bodies.session = { log: c.log, session: c.session };
  view.open({ id: c.session, name: serverName(c), origin: c.start }, [], c.state === 'running');
  state.cardsDirty = true;
  schedule();
  try {
    await fetchRows(c.log, c.session, c.start, (rows) => {
      if (state.sel === s) view.add(rows);
    });
    if (state.sel === s) view.add(s.early ?? []);
  } catch (err) {
    problem((err as Error).message);
  } finally {
    s.early = null;
  }
}

function onEvent(ev: LiveEvent): void {
  const sel = state.sel;
  switch (ev.type) {
    case 'hello':
      state.cards.clear();
      for (const c of ev.cards) state.cards.set(cardKey(c), c);
      state.cardsDirty = true;
      if (sel && !state.cards.has(sel.key)) {
        state.sel = null;
        view.close();
      }
      followNewest();
      break;
    case 'cards':
      for (const c of ev.cards) state.cards.set(cardKey(c), c);
      state.cardsDirty = true;
      followNewest();
      break;
    case 'rows':
      if (sel && sel.log === ev.log && sel.session === ev.session) {
        if (sel.early) sel.early.push(...ev.rows);
        else view.add(ev.rows);
      }
      break;
    case 'skipped':
      if (sel && sel.log === ev.log && sel.session === ev.session) {
        sel.skipped += ev.rows;
        state.cardsDirty = true;
      }
      break;
    case 'problem':
      problem(ev.text);
      break;
  }
  schedule();
}

function init(): void {
  ui.server.addEventListener('change', () => {
    state.cardsDirty = true;
    schedule();
  });
  ui.list.addEventListener('click', (ev) => {
    const card = ev.target instanceof Element ? ev.target.closest<HTMLElement>('.card') : null;
    const key = card?.dataset['key'];
    if (key === undefined) return;
    // the person chose: stop following (the head offers to follow again)
    state.following = false;
    void select(key);
  });
  ui.reveal.checked = false;
  ui.reveal.addEventListener('change', () => {
    bodies.reveal = ui.reveal.checked;
    document.body.classList.toggle('revealing', bodies.reveal);
    view.list.dropBodies();
  });
  window.addEventListener('error', (ev) => problem(`page error: ${ev.message}`));
  window.addEventListener('unhandledrejection', (ev) => problem(`page error: ${String((ev.reason as Error | undefined)?.message ?? ev.reason)}`));
  // open requests of a running session run to now
  setInterval(() => {
    const sel = state.sel;
    if (sel && selectedCard()?.state === 'running') view.extendTo(Date.now() - sel.origin);
  }, 1000);
  subscribe(onEvent, (connected) => {
    ui.conn.textContent = connected ? 'live' : 'disconnected: retrying…';
    ui.conn.className = connected ? 'conn on' : 'conn off';
  });
  view.close();
}

/** A small API for tests and for people poking at the page from the console. */
const api = {
  ready: false,
  cards: () => sortedCards().map((c) => ({ server: serverName(c), session: c.session, state: c.state, requests: c.requests, latency: c.latency.length })),
  selected: () => (state.sel ? { log: state.sel.log, session: state.sel.session } : null),
  following: () => state.following,
  listed: () => view.api.visibleRows(),
  rowCount: () => view.fold?.rows.length ?? 0,
  skipped: () => state.sel?.skipped ?? 0,
  /** Epoch ms of the newest row shown. */
  lastRowTime: () => (state.sel && view.fold && view.fold.rows.length > 0 ? state.sel.origin + view.fold.last : undefined),
  latencyText: (seq: number) => {
    const bar = view.fold?.wf.request(seq);
    const answer = bar?.answerSeq !== undefined ? view.fold?.row(bar.answerSeq) : undefined;
    return fmtMs(answer?.d);
  },
};
(window as unknown as { __live: typeof api; __view: typeof view.api }).__live = api;
(window as unknown as { __view: typeof view.api }).__view = view.api;
init();
api.ready = true;
