/**
 * The HTML report's script, bundled by esbuild (scripts/build-page.mjs) and inlined into the report
 * (no modules, no network at run time): reads the JSON data block and draws the waterfall (canvas for
 * the overview, axis and lanes; a virtualised list of DOM rows for the bars) and the virtualised,
 * filterable message list. Browser code, type-checked with tsconfig.page.json.
 *
 * Row keys (see rows.ts): s seq, t ms since start, f c|s|p, k kind, m method, g target, i id, r reqSeq,
 * d ms, x flags (E isError, C cancelled, T truncated, P partial, I inputRequired, R refused discovery probe), b bytes, n notes,
 * e event, it batch items, o outcome, a answer seq, y body (yt: t text, p pretty text; yb full size),
 * tk task id, to task's call seq, ts task status, td task duration.
 * Bar keys (see page.ts): s seq, it item, f from, i id, m method, g target, t0, t1, o outcome, a answer
 * seq, d ms, c cancel time, p progress times, et error text, tk task [id, status, created at].
 */
import { $, el, vis } from './dom.js';
import { fmtBytes, fmtMs } from './format.js';
import type { ReportBar, ReportData, ReportRow, ReportSession, ReportUi, Tick } from './report-types.js';
import { authChainText, type AuthLink } from '../../log/auth-chain.js';

var DATA = JSON.parse($('#report-data').textContent ?? '{}') as ReportData;
var ROW_H = 24, LIST_H = 27, LANE_H = 20, AXIS_H = 30, OV_H = 46;
var OUTCOME_TEXT: Record<string, string> = { ok: 'ok', error: 'error', isError: 'isError', cancelled: 'cancelled', unanswered: 'no answer', refused: 'refused probe', running: 'task running' };
var OUTCOME_COLOR: Record<string, string> = { ok: '#2563eb', error: '#dc2626', isError: '#d97706', cancelled: '#6b7280', unanswered: '#7c3aed', refused: '#94a3b8', running: '#0d9488' };
var TAG_COLOR: Record<string, string> = { invalid: '#dc2626', response: '#d97706', error: '#dc2626', batch: '#2563eb' };
var DIR: Record<string, string> = { c: '\u2192', s: '\u2190', p: '\u00b7' };
var DIR_TEXT: Record<string, string> = { c: 'client \u2192 server', s: 'server \u2192 client', p: 'mcp-tap' };
var BAD_OUTCOME: Record<string, number> = { error: 1, isError: 1, unanswered: 1 };

function fmtOff(t: number): string { return (t < 0 ? '\u2212' : '+') + (Math.abs(t) / 1000).toFixed(3) + ' s'; }
function idText(i: unknown): string { return i === undefined ? '' : vis(JSON.stringify(i)); }
function clip(text: unknown, n: number): string { var s = String(text); return s.length > n ? s.slice(0, n - 1) + '\u2026' : s; }
function niceStep(span: number, count: number): number {
  var raw = span / Math.max(1, count);
  var pow = Math.pow(10, Math.floor(Math.log10(raw)));
  var m = raw / pow;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * pow;
}
function axisLabel(t: number, step: number): string {
  var sign = t < 0 ? '\u2212' : '';
  t = Math.abs(t);
  if (t === 0) return '0';
  if (step >= 60000) {
    var min = Math.floor(t / 60000 + 1e-9), sec = Math.round((t - min * 60000) / 1000);
    return sign + min + ' min' + (sec ? ' ' + sec + ' s' : '');
  }
  if (step >= 100) {
    var d = Math.max(0, Math.ceil(-Math.log10(step / 1000) - 1e-9));
    return sign + (t / 1000).toFixed(d) + ' s';
  }
  var dm = Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
  return sign + t.toFixed(dm) + ' ms';
}

/* ---------- state ---------- */
var S: ReportSession | null = null; // the current session's data
var rows: ReportRow[] = [], bars: ReportBar[] = [], bySeq = new Map<number, number>(), barOf = new Map<number, ReportBar>();
var full: [number, number] = [0, 1], view: [number, number] = [0, 1];
interface Filter { method: string; dir: string; kind: string; err: boolean; text: string; range: boolean }
var filt: Filter = { method: '', dir: '', kind: '', err: false, text: '', range: true };
var selected: number | null = null;
var expanded = new Set<number>();
var heights = new Map<number, number>();
var wfBars: ReportBar[] = [];          // bars shown in the waterfall (filtered, overlapping the view)
var listIdx = new Int32Array(0), listOff = new Float64Array(1);
var W = 100;              // width of the time track in px
var ui = {} as ReportUi;

function zoomed() { return view[0] > full[0] + 1e-9 || view[1] < full[1] - 1e-9; }
function X(t: number): number { return (t - view[0]) / (view[1] - view[0]) * W; }

function loadSession(i: number): void {
  var cur = DATA.sessions[i]!;
  S = cur;
  rows = cur.rows; bars = cur.bars;
  bySeq = new Map(); barOf = new Map();
  for (var j = 0; j < rows.length; j++) bySeq.set(rows[j]!.s, j);
  for (var k = 0; k < bars.length; k++) {
    var b = bars[k]!;
    b.key = b.it === undefined ? String(b.s) : b.s + ':' + b.it;
    if (!barOf.has(b.s)) barOf.set(b.s, b);
    if (b.a !== undefined && !barOf.has(b.a)) barOf.set(b.a, b);
  }
  var lo = 0, hi = Math.max(cur.duration, 0);
  for (var r = 0; r < rows.length; r++) { var t = rows[r]!.t; if (t < lo) lo = t; if (t > hi) hi = t; }
  if (hi - lo < 1) hi = lo + 1;
  full = [lo, hi + (hi - lo) * 0.01];
  view = [full[0], full[1]];
  selected = null; expanded = new Set(); heights = new Map(); keyIndex = null;
  document.querySelectorAll<HTMLElement>('.session-head').forEach(function (h) { h.hidden = h.getAttribute('data-session') !== String(i); });
  buildFilters();
  buildWaterfall();
  refilter();
}

/* ---------- filters ---------- */
function rowMethods(r: ReportRow): [string | undefined, string | undefined][] {
  if (r.k === 'batch' && r.it) return r.it.map(function (x): [string | undefined, string | undefined] { return [x.method, x.target]; });
  return [[r.m, r.g]];
}
function methodOk(m: string | undefined, g: string | undefined): boolean {
  if (!filt.method) return true;
  var p = filt.method.split('\u0000');
  return m === p[0] && (p.length < 2 || g === p[1]);
}
function hay(r: ReportRow): string {
  if (r._h === undefined) {
    var body = r.yt ? r.y : JSON.stringify(r.y);
    r._h = [r.m || '', r.g || '', r.i === undefined ? '' : JSON.stringify(r.i), r.e || '', r.n ? JSON.stringify(r.n) : '', body || ''].join('\n').toLowerCase();
  }
  return r._h;
}
function isBad(r: ReportRow): boolean {
  if ((r.k === 'error' && !(r.x && r.x.indexOf('R') >= 0)) || r.k === 'invalid' || r.n) return true;
  if (r.x && r.x.indexOf('E') >= 0) return true;
  if (r.k === 'request' && r.o !== undefined && BAD_OUTCOME[r.o]) return true;
  if (r.k === 'batch' && r.it) return r.it.some(function (x) { return x.kind === 'error' || x.isError === true || (x.o !== undefined && BAD_OUTCOME[x.o] !== undefined) || (x.notes !== undefined && x.notes.length > 0); });
  return false;
}
function rowOk(r: ReportRow): boolean {
  if (filt.method) {
    var ms = rowMethods(r), ok = false;
    for (var i = 0; i < ms.length; i++) if (methodOk(ms[i]![0], ms[i]![1])) ok = true;
    if (!ok) return false;
  }
  if (filt.dir && r.f !== filt.dir) return false;
  if (filt.kind && r.k !== filt.kind) return false;
  if (filt.err && !isBad(r)) return false;
  if (filt.text && hay(r).indexOf(filt.text) < 0) return false;
  if (filt.range && zoomed() && (r.t < view[0] || r.t > view[1])) return false;
  return true;
}
function barOk(b: ReportBar): boolean {
  if (filt.method && !methodOk(b.m, b.g)) return false;
  if (filt.dir && b.f !== filt.dir) return false;
  if (filt.err && !BAD_OUTCOME[b.o]) return false;
  if (filt.text) {
    var q = bySeq.get(b.s), a = b.a === undefined ? undefined : bySeq.get(b.a);
    if (!(q !== undefined && hay(rows[q]!).indexOf(filt.text) >= 0) && !(a !== undefined && hay(rows[a]!).indexOf(filt.text) >= 0)) return false;
  }
  return true;
}

function option(sel: HTMLSelectElement, value: string, text: string): void { var o = el('option', null, text); o.value = value; sel.appendChild(o); }
function buildFilters() {
  var methods = new Map(), targets = new Map(), kinds = new Map();
  rows.forEach(function (r) {
    kinds.set(r.k, (kinds.get(r.k) || 0) + 1);
    rowMethods(r).forEach(function (p) {
      if (!p[0]) return;
      methods.set(p[0], (methods.get(p[0]) || 0) + 1);
      if (p[1] !== undefined && (p[0] === 'tools/call' || p[0] === 'prompts/get' || p[0] === 'resources/read')) {
        var t = targets.get(p[0]) || new Map();
        t.set(p[1], (t.get(p[1]) || 0) + 1);
        targets.set(p[0], t);
      }
    });
  });
  var fm = ui.fMethod; fm.textContent = '';
  option(fm, '', 'All methods');
  Array.from(methods.keys()).sort().forEach(function (m) {
    option(fm, m, vis(m) + ' (' + methods.get(m) + ')');
    var t = targets.get(m);
    if (t && t.size <= 100) Array.from(t.keys()).sort().forEach(function (g) { option(fm, m + '\u0000' + g, '\u00a0\u00a0\u00a0' + vis(clip(g, 60)) + ' (' + t.get(g) + ')'); });
  });
  var fk = ui.fKind; fk.textContent = '';
  option(fk, '', 'All kinds');
  ['request', 'response', 'error', 'notification', 'batch', 'invalid', 'stderr', 'event'].concat(Array.from(kinds.keys())).forEach(function (k, i, all) {
    if (kinds.has(k) && all.indexOf(k) === i) option(fk, k, k + ' (' + kinds.get(k) + ')');
  });
  filt = { method: '', dir: '', kind: '', err: false, text: '', range: true };
  syncFilterControls();
}
function syncFilterControls() {
  ui.fMethod.value = filt.method; ui.fDir.value = filt.dir; ui.fKind.value = filt.kind;
  ui.fErr.checked = filt.err; ui.fText.value = filt.text; ui.fRange.checked = filt.range;
}
function readFilterControls() {
  filt.method = ui.fMethod.value; filt.dir = ui.fDir.value; filt.kind = ui.fKind.value;
  filt.err = ui.fErr.checked; filt.text = ui.fText.value.trim().toLowerCase(); filt.range = ui.fRange.checked;
}
function refilter() {
  var idx = [];
  for (var i = 0; i < rows.length; i++) if (rowOk(rows[i]!)) idx.push(i);
  listIdx = Int32Array.from(idx);
  layoutList();
  ui.count.textContent = listIdx.length === rows.length ? rows.length + ' messages' : listIdx.length + ' of ' + rows.length + ' messages';
  drawWaterfall();
}

/* ---------- waterfall ---------- */
function canvasIn(parent: HTMLElement, h: number): HTMLCanvasElement {
  var c = el('canvas');
  c.style.height = h + 'px';
  parent.appendChild(c);
  return c;
}
function fit(c: HTMLCanvasElement, h: number): CanvasRenderingContext2D {
  var w = Math.max(10, (c.parentNode as HTMLElement).clientWidth), dpr = window.devicePixelRatio || 1;
  if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) { c.width = Math.round(w * dpr); c.height = Math.round(h * dpr); }
  var ctx = c.getContext('2d')!;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  return ctx;
}
function trackRow(cls: string, label: string): { row: HTMLElement; label: HTMLElement; track: HTMLElement } {
  var row = el('div', 'wf-row ' + cls);
  var lab = el('div', 'wf-label', label);
  var track = el('div', 'wf-track');
  row.appendChild(lab); row.appendChild(track);
  return { row: row, label: lab, track: track };
}
var LANES = [
  { key: 'nc', label: '\u2192 notifications from the client', height: LANE_H },
  { key: 'ns', label: '\u2190 notifications from the server', height: LANE_H },
  { key: 'e', label: 'stderr', height: LANE_H },
  { key: 'o', label: 'invalid lines, unpaired answers, events', height: LANE_H }
];
function laneTicks(key: string): Tick[] {
  var L = S!.lanes;
  if (key === 'nc') return L.n.filter(function (x) { return x[2] === 'c'; });
  if (key === 'ns') return L.n.filter(function (x) { return x[2] === 's'; });
  return key === 'e' ? L.e : L.o;
}
function buildWaterfall() {
  var root = ui.wfBody; root.textContent = '';
  var wf = el('div', 'wf');
  var ov = trackRow('wf-ov', 'Whole session \u2014 drag to zoom');
  ui.ovCanvas = canvasIn(ov.track, OV_H);
  ui.ovBrush = el('div', 'brush'); ui.ovBrush.hidden = true; ov.track.appendChild(ui.ovBrush);
  wf.appendChild(ov.row);
  var ax = trackRow('wf-axis', 'Time since start \u2014 drag to zoom');
  ui.axCanvas = canvasIn(ax.track, AXIS_H);
  ui.axBrush = el('div', 'brush'); ui.axBrush.hidden = true; ax.track.appendChild(ui.axBrush);
  ui.axTrack = ax.track;
  wf.appendChild(ax.row);
  ui.lanes = [];
  LANES.forEach(function (l) {
    var ticks = laneTicks(l.key);
    if (ticks.length === 0) return;
    var lr = trackRow('lane', l.label + ' (' + ticks.length + ')');
    lr.row.setAttribute('data-lane', l.key);
    var c = canvasIn(lr.track, l.height);
    ui.lanes.push({ key: l.key, canvas: c, ticks: ticks, height: l.height });
    wf.appendChild(lr.row);
    c.addEventListener('mousemove', function (ev) { laneHover(ev, c, ticks); });
    c.addEventListener('mouseleave', hideTip);
    c.addEventListener('click', function (ev) { var t = nearestTick(ev, c, ticks); if (t) selectSeq(t[1], true); });
  });
  var body = el('div', 'wf-scroll');
  ui.wfGrid = el('div', 'wf-grid');
  ui.wfSpacer = el('div', 'wf-spacer');
  body.appendChild(ui.wfSpacer);
  var holder = el('div');
  holder.style.position = 'relative';
  holder.appendChild(ui.wfGrid);
  holder.appendChild(body);
  wf.appendChild(holder);
  ui.wfScroll = body;
  ui.wfEmpty = el('div', 'wf-empty', '');
  ui.wfEmpty.hidden = true;
  wf.appendChild(ui.wfEmpty);
  root.appendChild(wf);
  root.appendChild(el('div', 'wf-help', 'Hover a bar for details, click it to open the message. Drag on the overview or the time axis to zoom into a range; double-click the axis, or \u201cWhole session\u201d, to zoom out. Ctrl+wheel zooms, Shift+wheel pans.'));
  body.addEventListener('scroll', function () { schedule(renderBars); });
  body.addEventListener('mouseover', barHover);
  body.addEventListener('mousemove', moveTip);
  body.addEventListener('mouseleave', hideTip);
  body.addEventListener('click', function (ev) {
    var row = ev.target instanceof Element && ev.target.closest('.wrow');
    if (!row) return;
    var b = barByKey(row.getAttribute('data-key'));
    if (b) selectSeq(b.s, true);
  });
  wf.addEventListener('wheel', onWheel, { passive: false });
  dragSelect(ax.track, ui.axBrush, function (px) { return view[0] + px / W * (view[1] - view[0]); });
  dragSelect(ov.track, ui.ovBrush, function (px) { return full[0] + px / W * (full[1] - full[0]); }, true);
  ax.track.addEventListener('dblclick', function () { setView(full[0], full[1]); });
}
var keyIndex: Map<string, ReportBar> | null = null;
function barByKey(k: string | null): ReportBar | undefined {
  if (!keyIndex) { var idx = new Map<string, ReportBar>(); bars.forEach(function (b) { idx.set(b.key, b); }); keyIndex = idx; }
  if (k === null) return undefined;
  return keyIndex.get(k);
}
function drawWaterfall() {
  if (!ui.axTrack) return;
  W = Math.max(10, ui.axTrack.clientWidth);
  wfBars = [];
  for (var i = 0; i < bars.length; i++) {
    var b = bars[i]!;
    if (b.t1 >= view[0] && b.t0 <= view[1] && barOk(b)) wfBars.push(b);
  }
  ui.wfSpacer.style.height = wfBars.length * ROW_H + 'px';
  ui.wfEmpty.hidden = wfBars.length > 0;
  ui.wfEmpty.textContent = bars.length === 0 ? 'No requests in this session.' : 'No request matches the filters in this time range.';
  drawOverview(); drawAxis(); drawLanes(); drawGrid(); renderBars();
  ui.range.textContent = fmtOff(view[0]) + ' \u2013 ' + fmtOff(view[1]) + (zoomed() ? '  (zoomed)' : '');
  ui.zAll.disabled = !zoomed();
}
var gridTicks: number[] = [];
function ticksFor(a: number, b: number, px: number): { step: number; ticks: number[] } {
  var step = niceStep(b - a, px / 110);
  var out = [];
  for (var t = Math.ceil(a / step) * step; t <= b + step * 1e-6; t += step) out.push(Math.abs(t) < step * 1e-6 ? 0 : t);
  return { step: step, ticks: out };
}
function drawAxis() {
  var ctx = fit(ui.axCanvas, AXIS_H);
  var tk = ticksFor(view[0], view[1], W);
  gridTicks = tk.ticks;
  ctx.fillStyle = '#f8fafc'; ctx.fillRect(0, 0, W, AXIS_H);
  ctx.font = '12px system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif';
  ctx.textBaseline = 'middle';
  tk.ticks.forEach(function (t) {
    var x = Math.round(X(t)) + 0.5;
    ctx.strokeStyle = '#6b7280'; ctx.beginPath(); ctx.moveTo(x, AXIS_H - 8); ctx.lineTo(x, AXIS_H); ctx.stroke();
    var label = axisLabel(t, tk.step);
    var w = ctx.measureText(label).width;
    var lx = Math.min(Math.max(x - w / 2, 2), W - w - 2);
    ctx.fillStyle = '#111827'; ctx.fillText(label, lx, AXIS_H / 2 - 3);
  });
}
function drawGrid() {
  var g = ui.wfGrid; g.textContent = '';
  gridTicks.forEach(function (t) { var i = el('i'); i.style.left = Math.round(X(t)) + 'px'; g.appendChild(i); });
}
var MINI_MAX = 120;
function drawOverview() {
  var ctx = fit(ui.ovCanvas, OV_H);
  var span = full[1] - full[0], h = OV_H - 8;
  var xo = function (t: number): number { return (t - full[0]) / span * W; };
  ctx.fillStyle = '#f8fafc'; ctx.fillRect(0, 0, W, OV_H);
  var shown = bars.filter(barOk), n = shown.length;
  if (n <= MINI_MAX) {
    // few requests: a miniature of the whole waterfall
    var lh = Math.max(1, Math.min(4, h / Math.max(1, n)));
    for (var i = 0; i < n; i++) {
      var b = shown[i]!, x0 = xo(b.t0), x1 = Math.max(xo(b.t1), x0 + 1.5);
      ctx.fillStyle = OUTCOME_COLOR[b.o] || '#2563eb';
      ctx.fillRect(x0, 4 + (n > 1 ? i / (n - 1) * (h - lh) : h / 2 - lh / 2), x1 - x0, lh);
    }
  } else {
    // many: requests in flight per pixel column, and where the failures are
    var starts = new Float64Array(n), ends = new Float64Array(n);
    for (var j = 0; j < n; j++) { starts[j] = shown[j]!.t0; ends[j] = shown[j]!.t1; }
    starts.sort(); ends.sort();
    var below = function (arr: Float64Array, t: number): number { var lo = 0, hi = arr.length; while (lo < hi) { var m = (lo + hi) >> 1; if (arr[m]! < t) lo = m + 1; else hi = m; } return lo; };
    var cols = Math.max(1, Math.floor(W)), act = new Float64Array(cols), max = 1;
    for (var c = 0; c < cols; c++) {
      var ta = full[0] + c / cols * span, tb = full[0] + (c + 1) / cols * span;
      act[c] = below(starts, tb) - below(ends, ta);
      if (act[c]! > max) max = act[c]!;
    }
    var ah = h - 6;
    ctx.fillStyle = '#bfdbfe';
    ctx.beginPath(); ctx.moveTo(0, 4 + ah);
    for (var k = 0; k < cols; k++) ctx.lineTo(k + 0.5, 4 + ah - act[k]! / max * ah);
    ctx.lineTo(cols, 4 + ah); ctx.closePath(); ctx.fill();
    ctx.strokeStyle = '#2563eb'; ctx.lineWidth = 1; ctx.beginPath();
    for (var q = 0; q < cols; q++) { var y = 4 + ah - act[q]! / max * ah; if (q === 0) ctx.moveTo(0, y); else ctx.lineTo(q + 0.5, y); }
    ctx.stroke();
    ctx.fillStyle = '#374151'; ctx.font = '10.5px system-ui, sans-serif'; ctx.textBaseline = 'top';
    ctx.fillText('max ' + max + ' in flight', 4, 3);
    var lastX: Record<string, number> = {}, order = ['isError', 'error', 'unanswered'];
    order.forEach(function (o) {
      ctx.fillStyle = OUTCOME_COLOR[o]!;
      for (var z = 0; z < n; z++) {
        var bb = shown[z]!;
        if (bb.o !== o) continue;
        var x = Math.round(xo(o === 'unanswered' ? bb.t0 : bb.t1));
        if (lastX[o] === x) continue;
        lastX[o] = x;
        ctx.fillRect(x - 1, OV_H - 7, 2, 6);
      }
    });
  }
  if (zoomed()) {
    var a = xo(view[0]), zz = xo(view[1]);
    ctx.fillStyle = 'rgba(17,24,39,0.10)';
    ctx.fillRect(0, 0, a, OV_H); ctx.fillRect(zz, 0, W - zz, OV_H);
    ctx.strokeStyle = '#111827'; ctx.lineWidth = 1.5; ctx.strokeRect(a + 0.75, 0.75, Math.max(1, zz - a - 1.5), OV_H - 1.5);
  }
}
function drawLanes() {
  ui.lanes.forEach(function (lane) {
    var ctx = fit(lane.canvas, lane.height);
    var ticks = lane.ticks, lastX = -1, lastC = '';
    for (var i = 0; i < ticks.length; i++) {
      var tick = ticks[i]!, t = tick[0];
      if (t < view[0] || t > view[1]) continue;
      var x = Math.round(X(t));
      var c = lane.key === 'e' ? '#475569' : lane.key === 'o' ? (TAG_COLOR[tick[2] ?? ''] || '#111827') : '#0f766e';
      if (x === lastX && c === lastC) continue;
      lastX = x; lastC = c;
      ctx.fillStyle = c;
      ctx.fillRect(x - 1, 3, 2, lane.height - 6);
    }
  });
}
function renderBars() {
  var sc = ui.wfScroll, layer = ui.wfSpacer;
  var top = sc.scrollTop, h = sc.clientHeight || 400;
  var i0 = Math.max(0, Math.floor(top / ROW_H) - 4), i1 = Math.min(wfBars.length, Math.ceil((top + h) / ROW_H) + 4);
  var frag = document.createDocumentFragment();
  for (var i = i0; i < i1; i++) frag.appendChild(barRow(wfBars[i]!, i));
  layer.textContent = '';
  layer.appendChild(frag);
}
function barLabel(b: ReportBar): HTMLElement {
  var lab = el('div', 'wf-label');
  lab.appendChild(el('span', 'wlabel-dir', DIR[b.f]));
  lab.appendChild(el('span', 'wlabel-m', vis(b.m)));
  if (b.g !== undefined) lab.appendChild(el('span', 'wlabel-t', vis(b.g)));
  lab.appendChild(el('span', 'wlabel-s', '#' + b.s + (b.it !== undefined ? '.' + (b.it + 1) : '')));
  lab.title = b.m + (b.g !== undefined ? ' ' + b.g : '');
  return lab;
}
function outcomeShort(b: ReportBar): string {
  if (b.o === 'unanswered') return 'no answer';
  if (b.o === 'running') return 'task running';
  if (b.o === 'cancelled') return 'cancelled' + (b.d !== undefined ? ' \u00b7 ' + fmtMs(b.d) : '');
  if (b.o === 'refused') return 'refused probe';
  if (b.o === 'error') return (b.et ? 'error ' + clip(vis(b.et.split(' ')[0] ?? ''), 12) : 'error') + (b.d !== undefined ? ' \u00b7 ' + fmtMs(b.d) : '');
  if (b.o === 'isError') return 'isError \u00b7 ' + fmtMs(b.d);
  return fmtMs(b.d !== undefined ? b.d : b.t1 - b.t0);
}
function barRow(b: ReportBar, i: number): HTMLElement {
  var row = el('div', 'wrow' + (selected !== null && (b.s === selected || b.a === selected) ? ' sel' : ''));
  row.style.top = i * ROW_H + 'px';
  row.setAttribute('data-key', b.key);
  row.appendChild(barLabel(b));
  var track = el('div', 'wf-track');
  var x0 = X(b.t0), x1 = X(b.t1);
  var left = Math.max(-4, Math.min(W + 4, x0)), right = Math.max(-4, Math.min(W + 4, x1));
  var width = Math.max(2, right - left);
  var bar = el('div', 'bar o-' + b.o);
  bar.setAttribute('data-seq', String(b.s));
  bar.setAttribute('data-outcome', b.o);
  bar.setAttribute('data-method', b.m);
  bar.setAttribute('data-key', b.key);
  if (b.it !== undefined) bar.setAttribute('data-item', String(b.it));
  if (selected !== null && (b.s === selected || b.a === selected)) bar.classList.add('sel');
  bar.style.left = left + 'px';
  bar.style.width = width + 'px';
  if (b.p) b.p.forEach(function (t) {
    var px = X(t) - left;
    if (px < 0 || px > width) return;
    var m = el('i', 'pm'); m.style.left = px + 'px'; bar.appendChild(m);
  });
  track.appendChild(bar);
  var text = outcomeShort(b), lat = el('span', 'lat', text);
  var tw = text.length * 6.6 + 8;
  if (left + width + tw < W) lat.style.left = (left + width + 6) + 'px';
  else if (left - tw > 0) { lat.style.left = (left - tw) + 'px'; }
  else { lat.className = 'lat in'; lat.style.left = (Math.max(0, left) + 6) + 'px'; }
  track.appendChild(lat);
  row.appendChild(track);
  return row;
}
function setView(a: number, b: number): void {
  var minSpan = Math.max(0.001, (full[1] - full[0]) * 1e-7);
  if (b - a < minSpan) { var c = (a + b) / 2; a = c - minSpan / 2; b = c + minSpan / 2; }
  var span = Math.min(b - a, full[1] - full[0]);
  if (a < full[0]) { a = full[0]; b = a + span; }
  if (b > full[1]) { b = full[1]; a = b - span; }
  view = [a, b];
  if (filt.range) refilter(); else drawWaterfall();
}
function zoomBy(f: number, at?: number): void {
  if (at === undefined) at = (view[0] + view[1]) / 2;
  setView(at - (at - view[0]) * f, at + (view[1] - at) * f);
}
function onWheel(ev: WheelEvent): void {
  if (!(ev.ctrlKey || ev.metaKey || ev.shiftKey || Math.abs(ev.deltaX) > Math.abs(ev.deltaY))) return;
  var track = ui.axTrack.getBoundingClientRect();
  var px = ev.clientX - track.left;
  if (px < 0 || px > W) return;
  ev.preventDefault();
  if (ev.ctrlKey || ev.metaKey) zoomBy(ev.deltaY > 0 ? 1.25 : 0.8, view[0] + px / W * (view[1] - view[0]));
  else {
    var d = (ev.shiftKey ? ev.deltaY : ev.deltaX) / W * (view[1] - view[0]);
    setView(view[0] + d, view[1] + d);
  }
}
function dragSelect(track: HTMLElement, brush: HTMLElement, toTime: (px: number) => number, isOverview?: boolean): void {
  var start = 0;
  function px(ev: MouseEvent): number { var r = track.getBoundingClientRect(); return Math.max(0, Math.min(W, ev.clientX - r.left)); }
  track.addEventListener('mousedown', function (ev: MouseEvent) {
    if (ev.button !== 0) return;
    ev.preventDefault();
    start = px(ev);
    brush.style.left = start + 'px'; brush.style.width = '0px'; brush.hidden = false;
    function move(e: MouseEvent): void { var p = px(e); brush.style.left = Math.min(p, start) + 'px'; brush.style.width = Math.abs(p - start) + 'px'; }
    function up(e: MouseEvent): void {
      window.removeEventListener('mousemove', move); window.removeEventListener('mouseup', up);
      brush.hidden = true;
      var p = px(e);
      if (Math.abs(p - start) >= 4) {
        var a = toTime(Math.min(p, start)), b = toTime(Math.max(p, start));
        setView(a, b);
      } else if (isOverview) {
        var c = toTime(p), half = (view[1] - view[0]) / 2;
        setView(c - half, c + half);
      }
      start = 0;
    }
    window.addEventListener('mousemove', move); window.addEventListener('mouseup', up);
  });
}

/* ---------- tooltip ---------- */
function line(parent: HTMLElement, parts: (string | HTMLElement | null | undefined | false)[]): HTMLElement {
  var d = el('div');
  parts.forEach(function (p) { if (typeof p === 'string') d.appendChild(document.createTextNode(p)); else if (p) d.appendChild(p); });
  parent.appendChild(d);
  return d;
}
function pill(o: string): HTMLElement { return el('span', 'pill o-' + o, OUTCOME_TEXT[o] || o); }
function barTip(b: ReportBar): HTMLElement {
  var t = el('div');
  line(t, [el('b', null, vis(b.m)), b.g !== undefined ? ' ' : '', b.g !== undefined ? el('span', 'tgt', vis(clip(b.g, 120))) : null]);
  line(t, [el('span', 'muted', DIR_TEXT[b.f] + (b.i !== undefined ? ' \u00b7 id ' + idText(b.i) : '') + ' \u00b7 #' + b.s + (b.it !== undefined ? ' (batch element ' + (b.it + 1) + ')' : ''))]);
  var what;
  if (b.o === 'unanswered') what = 'no answer by the end of the session (' + fmtMs(b.t1 - b.t0) + ' waiting)';
  else if (b.o === 'running') what = 'its task was still running at the end of the session (' + fmtMs(b.t1 - b.t0) + ' so far)';
  else if (b.o === 'cancelled') what = 'cancelled' + (b.c !== undefined ? ' at ' + fmtOff(b.c) : '') + (b.a !== undefined ? ', answered anyway in ' + fmtMs(b.d) + ' (#' + b.a + ')' : ', never answered');
  else if (b.o === 'refused') what = 'discovery probe refused in ' + fmtMs(b.d) + ' (#' + b.a + '): the client falls back to initialize';
  else what = (b.o === 'ok' ? 'answered' : b.o === 'error' ? 'error answer' : 'tool failed (isError)') + ' in ' + fmtMs(b.d !== undefined ? b.d : b.t1 - b.t0) + ' (#' + b.a + ')' + (b.c !== undefined ? '; cancel sent at ' + fmtOff(b.c) + ', after the answer' : '');
  line(t, [pill(b.o), what]);
  if (b.et) line(t, [el('span', 'err', vis(b.et))]);
  if (b.tk) line(t, ['task ', el('span', 'tgt', vis(clip(b.tk[0], 60))), ' \u00b7 ' + vis(b.tk[1]) + ' \u00b7 created ' + fmtOff(b.tk[2]) + '; the bar runs to the task\'s end']);
  line(t, [el('span', 'muted', 'sent ' + fmtOff(b.t0) + (b.o !== 'unanswered' ? ' \u00b7 ended ' + fmtOff(b.t1) : ''))]);
  if (b.p && b.p.length) line(t, [b.p.length + ' progress notification' + (b.p.length === 1 ? '' : 's')]);
  return t;
}
function rowTip(r: ReportRow): HTMLElement {
  var t = el('div');
  line(t, [el('b', null, r.k === 'event' ? 'event ' + (r.e || '') : r.k), r.m ? ' ' : '', r.m ? el('span', 'tgt', vis(r.m)) : null]);
  line(t, [el('span', 'muted', DIR_TEXT[r.f] + ' \u00b7 #' + r.s + ' \u00b7 ' + fmtOff(r.t))]);
  var s = summaryText(r);
  if (s) line(t, [clip(s, 300)]);
  if (r.n) r.n.forEach(function (n) { line(t, [el('span', 'err', vis(n.code))]); });
  return t;
}
function showTip(content: HTMLElement, ev: MouseEvent): void {
  var tip = ui.tip;
  tip.textContent = '';
  tip.appendChild(content);
  tip.hidden = false;
  moveTip(ev);
}
function moveTip(ev: MouseEvent): void {
  var tip = ui.tip;
  if (tip.hidden) return;
  var x = ev.clientX + 14, y = ev.clientY + 16, r = tip.getBoundingClientRect();
  if (x + r.width > window.innerWidth - 8) x = Math.max(8, ev.clientX - r.width - 14);
  if (y + r.height > window.innerHeight - 8) y = Math.max(8, ev.clientY - r.height - 12);
  tip.style.left = x + 'px'; tip.style.top = y + 'px';
}
function hideTip() { ui.tip.hidden = true; }
function barHover(ev: MouseEvent): void {
  var row = ev.target instanceof Element && ev.target.closest('.wrow');
  if (!row) { hideTip(); return; }
  var b = barByKey(row.getAttribute('data-key'));
  if (b) showTip(barTip(b), ev);
}
function nearestTick(ev: MouseEvent, c: HTMLCanvasElement, ticks: Tick[]): Tick | null {
  var r = c.getBoundingClientRect(), px = ev.clientX - r.left, best: Tick | null = null, bd = 5;
  for (var i = 0; i < ticks.length; i++) {
    var tk = ticks[i]!, d = Math.abs(X(tk[0]) - px);
    if (d <= bd) { bd = d; best = tk; }
  }
  return best;
}
function laneHover(ev: MouseEvent, c: HTMLCanvasElement, ticks: Tick[]): void {
  var t = nearestTick(ev, c, ticks);
  if (!t) { hideTip(); c.style.cursor = ''; return; }
  c.style.cursor = 'pointer';
  var i = bySeq.get(t[1]);
  if (i !== undefined) showTip(rowTip(rows[i]!), ev);
}

/* ---------- message list ---------- */
function layoutList() {
  var n = listIdx.length, off = new Float64Array(n + 1);
  for (var i = 0; i < n; i++) {
    var s = rows[listIdx[i]!]!.s;
    off[i + 1] = off[i]! + (expanded.has(s) ? heights.get(s) ?? LIST_H : LIST_H);
  }
  listOff = off;
  ui.listSpacer.style.height = off[n] + 'px';
  renderList();
}
function firstAt(y: number): number {
  var lo = 0, hi = listIdx.length;
  while (lo < hi) { var mid = (lo + hi) >> 1; if (listOff[mid + 1]! <= y) lo = mid + 1; else hi = mid; }
  return lo;
}
var relayouts = 0;
function renderList() {
  var box = ui.list, top = box.scrollTop, h = box.clientHeight || 600;
  var i = Math.max(0, firstAt(top) - 3), frag = document.createDocumentFragment(), made: [number, HTMLElement][] = [];
  for (; i < listIdx.length && listOff[i]! < top + h + 300; i++) {
    var r = rows[listIdx[i]!]!, e = listRow(r);
    e.style.top = listOff[i] + 'px';
    frag.appendChild(e);
    if (expanded.has(r.s)) made.push([r.s, e]);
  }
  ui.listSpacer.textContent = '';
  ui.listSpacer.appendChild(frag);
  var changed = false;
  made.forEach(function (m) {
    var hh = m[1].offsetHeight;
    if (heights.get(m[0]) !== hh) { heights.set(m[0], hh); changed = true; }
  });
  if (changed && relayouts < 2) { relayouts++; layoutList(); relayouts--; }
}
function answerRow(seq: number): ReportRow | undefined { var i = bySeq.get(seq); return i === undefined ? undefined : rows[i]; }
function errorOf(r: ReportRow): string {
  var e = r.y && typeof r.y === 'object' && !r.yt ? (r.y as { error?: { code?: unknown; message?: unknown } }).error : undefined;
  if (!e || typeof e !== 'object') return '';
  return (typeof e.code === 'number' ? e.code + ' ' : '') + (typeof e.message === 'string' ? e.message : '');
}
function summaryText(r: ReportRow): string {
  var s = summaryBase(r);
  if (r.to !== undefined) return s + (s ? ' \u00b7 ' : '') + 'task of #' + r.to + (r.ts ? ' ' + vis(r.ts) : '') + (r.td !== undefined ? ', ended after ' + fmtMs(r.td) : '');
  if (r.tk !== undefined && r.k === 'response') return s + ' \u00b7 task created' + (r.ts ? ' (' + vis(r.ts) + ')' : '');
  return s;
}
function summaryBase(r: ReportRow): string {
  switch (r.k) {
    case 'request': {
      if (!r.o) return r.i === null ? 'id null: not tracked' : '';
      var a = r.a !== undefined ? answerRow(r.a) : undefined;
      if (r.td !== undefined) return OUTCOME_TEXT[r.o] + ' in ' + fmtMs(r.td) + ' (its task)';
      return OUTCOME_TEXT[r.o] + (a && a.d !== undefined && r.o !== 'running' ? ' in ' + fmtMs(a.d) : '') + (r.a !== undefined ? ' (#' + r.a + ')' : '');
    }
    case 'response': return 'answers #' + r.r + (r.d !== undefined ? ' in ' + fmtMs(r.d) : '') + (r.x && r.x.indexOf('E') >= 0 ? ' \u00b7 isError' : '') + (r.x && r.x.indexOf('I') >= 0 ? ' \u00b7 input required' : '');
    case 'error': return (r.x && r.x.indexOf('R') >= 0 ? 'refused probe \u00b7 ' : '') + vis(errorOf(r)) + (r.r !== undefined ? ' \u00b7 answers #' + r.r : '');
    case 'notification': {
      var p = r.y && typeof r.y === 'object' && !r.yt ? (r.y as { params?: { progress?: unknown; total?: unknown; requestId?: unknown; level?: unknown; data?: unknown } }).params : undefined;
      if (r.m === 'notifications/progress' && p) return 'progress ' + p.progress + (p.total !== undefined ? '/' + p.total : '') + (r.r !== undefined ? ' for #' + r.r : '');
      if (r.m === 'notifications/cancelled') return 'cancels ' + (r.r !== undefined ? '#' + r.r : 'id ' + idText(p && p.requestId));
      if (r.m === 'notifications/message' && p) return vis(clip((p.level ? p.level + ': ' : '') + (typeof p.data === 'string' ? p.data : JSON.stringify(p.data)), 200));
      return '';
    }
    case 'batch': return (r.it ? r.it.length : 0) + ' elements';
    case 'stderr': case 'invalid': return typeof r.y === 'string' ? vis(clip(r.y, 300)) : '';
    case 'event': {
      var y = (r.y || {}) as { signal?: string; code?: unknown; pendingCount?: number; pending?: unknown[]; lost?: unknown; reason?: string; error?: string; serverPid?: unknown; protocolVersion?: string; chain?: AuthLink[]; omitted?: number; ok?: boolean; previous?: unknown; sessionId?: unknown; notDecoded?: string };
      if (r.e === 'exit') return y.signal ? 'signal ' + y.signal : 'code ' + y.code;
      if (r.e === 'end') return (y.pendingCount || (y.pending ? y.pending.length : 0)) + ' unanswered';
      if (r.e === 'gap' || r.e === 'log-error') return 'lost ' + y.lost + (y.reason ? ' (' + y.reason + ')' : '') + (y.error ? ' ' + vis(y.error) : '');
      if (r.e === 'signal' || r.e === 'kill') return y.signal + (y.reason ? ' \u00b7 ' + vis(y.reason) : '');
      if (r.e === 'spawn') return 'server pid ' + y.serverPid;
      if (r.e === 'spawn-error') return vis(y.error || '');
      if (r.e === 'lifecycle') return 'protocol ' + (y.protocolVersion || '?');
      if (r.e === 'auth') return vis(authChainText(Array.isArray(y.chain) ? y.chain : [], typeof y.omitted === 'number' ? y.omitted : 0)) + (y.ok ? '' : ' \u00b7 not accepted');
      if (r.e === 'session-id') return (y.reason === 'reconnect' ? 'new session after the server forgot the last' : 'session id re-issued') + ' \u00b7 ' + vis(String(y.previous)) + ' \u2192 ' + vis(String(y.sessionId));
      if (r.e === 'exchange' || r.e === 'http') return vis(String(y.notDecoded || y.error || y.reason || ''));
      return '';
    }
  }
  return '';
}
function listRow(r: ReportRow): HTMLElement {
  var open = expanded.has(r.s);
  var e = el('div', 'lrow' + (open ? ' open' : '') + (selected === r.s ? ' sel' : '') + (isBad(r) ? ' bad' : ''));
  e.setAttribute('data-seq', String(r.s));
  e.setAttribute('data-kind', r.k);
  e.id = 'seq-' + r.s;
  var h = el('div', 'lhead');
  h.appendChild(el('span', 'c-t', fmtOff(r.t)));
  h.appendChild(el('span', 'c-s', '#' + r.s));
  h.appendChild(el('span', 'c-d', DIR[r.f]));
  var kc = el('span', 'c-k'); kc.appendChild(el('span', 'k k-' + r.k, r.k === 'event' ? 'event' : r.k)); h.appendChild(kc);
  var m = el('span', 'c-m');
  if (r.k === 'stderr' || r.k === 'invalid') m.appendChild(el('span', 'rawtxt', r.k === 'invalid' && !r.yt ? clip(vis(JSON.stringify(r.y)), 200) : clip(vis(r.y === null ? '' : String(r.y)), 200)));
  else if (r.k === 'event') m.appendChild(el('span', null, r.e || ''));
  else if (r.k === 'batch') m.appendChild(el('span', null, (r.it || []).map(function (x) { return vis(x.method || x.kind); }).join(', ')));
  else {
    m.appendChild(el('span', null, vis(r.m || '')));
    if (r.g !== undefined) m.appendChild(el('span', 'tg', vis(clip(r.g, 120))));
  }
  if (r.n) { var nb = el('span', 'note-b', '\u26a0 ' + r.n.map(function (n) { return n.code; }).join(', ')); m.appendChild(nb); }
  h.appendChild(m);
  h.appendChild(el('span', 'c-i', r.i !== undefined ? 'id ' + idText(r.i) : ''));
  var x = el('span', 'c-x');
  if (r.k === 'request' && r.o) { x.appendChild(pill(r.o)); x.appendChild(document.createTextNode(' ')); }
  var st = '';
  if (r.k === 'request') {
    var ans = r.a !== undefined ? answerRow(r.a) : undefined;
    if (ans) st = (ans.d !== undefined ? fmtMs(ans.d) + ' ' : '') + '\u2192 #' + r.a;
    else if (!r.o && r.i === null) st = 'id null: not tracked';
  } else if (r.k !== 'stderr' && r.k !== 'invalid') st = summaryText(r);
  x.appendChild(document.createTextNode(st));
  x.title = summaryText(r);
  h.appendChild(x);
  h.appendChild(el('span', 'c-b', fmtBytes(r.b)));
  e.appendChild(h);
  if (open) e.appendChild(detail(r));
  return e;
}
function seqLink(seq: number, text?: string): HTMLElement {
  var a = el('a', 'goto', text || '#' + seq);
  a.href = '#seq-' + seq;
  a.setAttribute('data-goto', String(seq));
  return a;
}
function bodyText(r: ReportRow): string {
  if (r.y === undefined) return '';
  if (r.yt) return vis(r.y === null ? '' : String(r.y));
  return vis(JSON.stringify(r.y, null, 2));
}
var JSON_TOKEN = /("(?:[^"\\\n]|\\.)*")(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;
function highlighted(pre: HTMLElement, text: string): void {
  if (text.length > 300000) { pre.textContent = text; return; }
  var last = 0, m;
  JSON_TOKEN.lastIndex = 0;
  while ((m = JSON_TOKEN.exec(text)) !== null) {
    if (m.index > last) pre.appendChild(document.createTextNode(text.slice(last, m.index)));
    var cls = m[1] ? (m[2] ? 'j-k' : 'j-s') : m[3] ? 'j-l' : 'j-n';
    pre.appendChild(el('span', cls, m[1] ? m[1] : m[0]));
    if (m[2]) pre.appendChild(document.createTextNode(m[2]));
    last = m.index + m[0].length;
  }
  if (last < text.length) pre.appendChild(document.createTextNode(text.slice(last)));
}
function detail(r: ReportRow): HTMLElement {
  var d = el('div', 'ldetail');
  d.addEventListener('click', function (ev) { ev.stopPropagation(); });
  var links = el('div', 'links');
  links.appendChild(document.createTextNode(DIR_TEXT[r.f] + ' \u00b7 ' + fmtOff(r.t) + ' \u00b7 '));
  if (r.k === 'request') {
    if (r.a !== undefined) { links.appendChild(document.createTextNode('answered by ')); links.appendChild(seqLink(r.a)); }
    else links.appendChild(document.createTextNode(r.o === 'cancelled' ? 'cancelled, never answered' : 'never answered'));
  }
  if ((r.k === 'response' || r.k === 'error') && r.r !== undefined) { links.appendChild(document.createTextNode('answers ')); links.appendChild(seqLink(r.r)); if (r.d !== undefined) links.appendChild(document.createTextNode(' after ' + fmtMs(r.d) + ' ')); }
  if (r.k === 'notification' && r.r !== undefined) { links.appendChild(document.createTextNode('refers to ')); links.appendChild(seqLink(r.r)); }
  if (r.ro !== undefined) { links.appendChild(document.createTextNode(' retry of ')); links.appendChild(seqLink(r.ro)); }
  if (r.xd !== undefined) links.appendChild(document.createTextNode(' \u00b7 whole exchange ' + fmtMs(r.xd)));
  d.appendChild(links);
  if (r.n) {
    var nt = el('div', 'notes');
    r.n.forEach(function (n) { var l = el('div'); l.appendChild(el('code', null, vis(n.code))); l.appendChild(document.createTextNode(' ' + vis(n.text))); nt.appendChild(l); });
    d.appendChild(nt);
  }
  if (r.k === 'batch' && r.it && r.it.length) {
    var tb = el('table', 'items'), hr = el('tr');
    ['#', 'kind', 'id', 'method', 'target', 'answer'].forEach(function (c) { hr.appendChild(el('th', null, c)); });
    tb.appendChild(hr);
    r.it.forEach(function (x, i) {
      var tr = el('tr');
      tr.appendChild(el('td', null, String(i + 1)));
      tr.appendChild(el('td', null, x.kind));
      tr.appendChild(el('td', null, idText(x.id)));
      tr.appendChild(el('td', null, vis(x.method || '')));
      tr.appendChild(el('td', null, vis(x.target || '')));
      var td = el('td');
      if (x.o) td.appendChild(pill(x.o));
      if (x.a !== undefined) { td.appendChild(document.createTextNode(' ')); td.appendChild(seqLink(x.a)); }
      if (x.reqSeq !== undefined) { td.appendChild(document.createTextNode('answers ')); td.appendChild(seqLink(x.reqSeq)); }
      tr.appendChild(td);
      tb.appendChild(tr);
    });
    d.appendChild(tb);
  }
  if (r.x && r.x.indexOf('T') >= 0) d.appendChild(el('div', 'short', 'The log holds a shortened copy of this line (' + fmtBytes(r.b) + ' on the wire).'));
  if (r.x && r.x.indexOf('P') >= 0) d.appendChild(el('div', 'short', 'The stream ended before this line\u2019s newline.'));
  if (r.yb !== undefined) d.appendChild(el('div', 'short', 'Shortened in this report: ' + r.yb + ' characters in full; the log has all of it.'));
  var pre = el('pre', 'body');
  var text = bodyText(r);
  if (r.yt === 't') pre.textContent = text; else highlighted(pre, text);
  d.appendChild(pre);
  return d;
}
function toggle(seq: number): void {
  if (expanded.has(seq)) { expanded.delete(seq); heights.delete(seq); } else expanded.add(seq);
  layoutList();
}
function scrollListTo(seq: number): void {
  var pos = -1;
  for (var i = 0; i < listIdx.length; i++) if (rows[listIdx[i]!]!.s === seq) { pos = i; break; }
  if (pos < 0) return;
  ui.list.scrollTop = Math.max(0, listOff[pos]! - 60);
  renderList();
  var e = document.getElementById('seq-' + seq);
  if (e) { e.classList.add('flash'); }
}
function selectSeq(seq: number, fromWaterfall: boolean): void {
  var i = bySeq.get(seq);
  if (i === undefined) return;
  var r = rows[i]!;
  if (!rowOk(r)) {
    filt = { method: '', dir: '', kind: '', err: false, text: '', range: filt.range };
    syncFilterControls();
    if (filt.range && zoomed() && (r.t < view[0] || r.t > view[1])) {
      var hs = (view[1] - view[0]) / 2;
      view = [Math.max(full[0], Math.min(full[1] - 2 * hs, r.t - hs)), 0];
      view[1] = view[0] + 2 * hs;
    }
  }
  selected = seq;
  expanded.add(seq);
  var b = barOf.get(seq) || (r.r !== undefined ? barOf.get(r.r) : undefined);
  if (b && !fromWaterfall && (b.t1 < view[0] || b.t0 > view[1])) {
    var half = (view[1] - view[0]) / 2, c = (b.t0 + Math.min(b.t1, b.t0 + half)) / 2;
    view = [c - half, c + half];
    if (view[0] < full[0]) view = [full[0], full[0] + 2 * half];
    if (view[1] > full[1]) view = [full[1] - 2 * half, full[1]];
  }
  refilter();
  scrollListTo(seq);
  if (b) {
    var k = wfBars.indexOf(b);
    if (k >= 0 && !fromWaterfall) { ui.wfScroll.scrollTop = Math.max(0, k * ROW_H - 2 * ROW_H); renderBars(); }
  }
  var card = document.getElementById('messages');
  var rect = ui.list.getBoundingClientRect();
  if (fromWaterfall && (rect.top > window.innerHeight - 120 || rect.bottom < 80)) card?.scrollIntoView({ block: 'start' });
}

/* ---------- wiring ---------- */
var pending = new Set<() => void>(), frame = 0;
function schedule(fn: () => void): void {
  pending.add(fn);
  if (!frame) frame = requestAnimationFrame(function () { frame = 0; var fns = Array.from(pending); pending.clear(); fns.forEach(function (f) { f(); }); });
}
function init() {
  ui.wfBody = $('#wf-body'); ui.range = $('#wf-range'); ui.zAll = $('#z-all');
  ui.list = $('#list'); ui.listSpacer = $('#list-spacer'); ui.count = $('#f-count'); ui.tip = $('#tip');
  ui.fMethod = $('#f-method'); ui.fDir = $('#f-dir'); ui.fKind = $('#f-kind'); ui.fErr = $('#f-err'); ui.fText = $('#f-text'); ui.fRange = $('#f-range');
  $('#z-in').addEventListener('click', function () { zoomBy(0.5); });
  $('#z-out').addEventListener('click', function () { zoomBy(2); });
  ui.zAll.addEventListener('click', function () { setView(full[0], full[1]); });
  [ui.fMethod, ui.fDir, ui.fKind, ui.fErr, ui.fRange].forEach(function (c) { c.addEventListener('change', function () { readFilterControls(); refilter(); }); });
  var timer = 0;
  ui.fText.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(function () { readFilterControls(); refilter(); }, 160); });
  ui.list.addEventListener('scroll', function () { schedule(renderList); });
  ui.list.addEventListener('click', function (ev) {
    var head = ev.target instanceof Element && ev.target.closest('.lhead');
    if (!head) return;
    var seq = Number((head.parentNode as HTMLElement).getAttribute('data-seq'));
    selected = seq;
    toggle(seq);
    schedule(renderBars);
  });
  document.addEventListener('click', function (ev) {
    var a = ev.target instanceof Element && ev.target.closest('a.goto');
    if (!a) return;
    ev.preventDefault();
    selectSeq(Number(a.getAttribute('data-goto')), false);
    var box = document.getElementById('messages');
    if (box && a.closest('.session-head')) box.scrollIntoView({ block: 'start' });
  });
  window.addEventListener('resize', function () { schedule(drawWaterfall); schedule(renderList); });
  var pick = document.querySelector<HTMLSelectElement>('#session-pick');
  if (pick) pick.addEventListener('change', function () { keyIndex = null; loadSession(Number(pick!.value)); });
  if (DATA.sessions.length === 0) { ui.wfBody.textContent = 'The log holds no records for this session.'; return; }
  loadSession(0);
}

/* A small API for tests and for people poking at the page from the console. */
var api = {
  ready: false,
  data: DATA,
  bars: function () { return bars.map(function (b) { return { seq: b.s, item: b.it, from: b.f, method: b.m, target: b.g, start: b.t0, end: b.t1, outcome: b.o, answer: b.a, progress: b.p ? b.p.length : 0 }; }); },
  waterfallBars: function () { return wfBars.map(function (b) { return b.key; }); },
  visibleRows: function () { return Array.from(listIdx, function (i) { return rows[i]!.s; }); },
  setFilter: function (f: Partial<Filter>) { var out = filt as unknown as Record<string, unknown>; for (var k in f) if (Object.prototype.hasOwnProperty.call(filt, k)) out[k] = k === 'text' ? String(f.text).toLowerCase() : (f as Record<string, unknown>)[k]; syncFilterControls(); refilter(); },
  setView: function (a: number, b: number) { setView(a, b); },
  view: function () { return view.slice(); },
  select: function (seq: number) { selectSeq(seq, false); },
  bodyText: function (seq: number) { var i = bySeq.get(seq); return i === undefined ? undefined : bodyText(rows[i]!); },
  session: function (i?: number) { if (i !== undefined) { keyIndex = null; loadSession(i); } return S ? S.id : null; }
};
(window as unknown as { __report: typeof api }).__report = api;
init();
api.ready = true;
