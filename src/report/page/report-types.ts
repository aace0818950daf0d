/**
 * The report's data block as the page script reads it (short keys: see report-page.ts), and the page
 * elements it keeps. Types only.
 */

/** A batch element (rows.ts adds o and a to its requests). */
export interface ReportItem {
  kind: string;
  id?: unknown;
  method?: string;
  target?: string;
  reqSeq?: number;
  isError?: boolean;
  notes?: { code: string; text: string }[];
  o?: string;
  a?: number;
}

export interface ReportRow {
  s: number;
  t: number;
  f: 'c' | 's' | 'p';
  k: string;
  m?: string;
  g?: string;
  i?: unknown;
  r?: number;
  d?: number;
  xd?: number;
  ro?: number;
  /** Tasks: task id, seq of the call that created it, status reported, duration (on the record that ended it; on a task call's request). */
  tk?: string;
  to?: number;
  ts?: string;
  td?: number;
  x?: string;
  b?: number;
  n?: { code: string; text: string }[];
  e?: string;
  it?: ReportItem[];
  o?: string;
  a?: number;
  y?: unknown;
  yt?: 't' | 'p';
  yb?: number;
  /** Lower-cased search text, made on first use. */
  _h?: string;
}

export interface ReportBar {
  s: number;
  it?: number;
  f: 'c' | 's';
  i?: unknown;
  m: string;
  g?: string;
  t0: number;
  t1: number;
  o: string;
  a?: number;
  d?: number;
  c?: number;
  p?: number[];
  et?: string;
  /** Answered with a task: [task id, last status, when the CreateTaskResult came]. */
  tk?: [string, string, number];
  /** `seq` or `seq:item`, made on load. */
  key: string;
}

/** [time, seq, tag?] */
export type Tick = [number, number, string?];

export interface ReportSession {
  id: string;
  name: string;
  origin: number;
  duration: number;
  lanes: { n: Tick[]; e: Tick[]; o: Tick[] };
  bars: ReportBar[];
  rows: ReportRow[];
}

export interface ReportData {
  version: string;
  redacted: boolean;
  sessions: ReportSession[];
}

export interface Lane {
  key: string;
  canvas: HTMLCanvasElement;
  ticks: Tick[];
  height: number;
}

/** The page elements the script works with. */
export interface ReportUi {
  wfBody: HTMLElement;
  range: HTMLElement;
  zAll: HTMLButtonElement;
  list: HTMLElement;
  listSpacer: HTMLElement;
  count: HTMLElement;
  tip: HTMLElement;
  fMethod: HTMLSelectElement;
  fDir: HTMLSelectElement;
  fKind: HTMLSelectElement;
  fErr: HTMLInputElement;
  fText: HTMLInputElement;
  fRange: HTMLInputElement;
  ovCanvas: HTMLCanvasElement;
  ovBrush: HTMLElement;
  axCanvas: HTMLCanvasElement;
  axBrush: HTMLElement;
  axTrack: HTMLElement;
  lanes: Lane[];
  wfGrid: HTMLElement;
  wfSpacer: HTMLElement;
  wfScroll: HTMLElement;
  wfEmpty: HTMLElement;
}
