/** The report's own stylesheet around the session view's (src/session-view/style.ts): the page, its title and the static session header. */
import { VIEW_CSS } from '../session-view/style.js';

const REPORT_CSS = String.raw`
html, body { margin: 0; background: var(--bg); color: var(--text); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
code, pre, .mono { font-family: var(--mono); font-size: 12.5px; }
a { color: #1d4ed8; }
.page { max-width: 1600px; margin: 0 auto; padding: 16px 20px 40px; }
.title { display: flex; flex-wrap: wrap; align-items: baseline; gap: 8px 20px; margin-bottom: 10px; }
.title h1 { font-size: 21px; margin: 0; font-weight: 650; }
.title h1 code { font-size: 19px; background: #e5e9f0; padding: 1px 6px; border-radius: 4px; }
.notice { margin: 0; color: var(--muted); font-size: 13px; flex: 1 1 400px; }
.notice.danger { color: #991b1b; font-weight: 600; }
.picker select { font: inherit; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; margin: 14px 0; box-shadow: 0 1px 2px rgba(17,24,39,.05); }
.card > h2, .card-head h2 { font-size: 16px; margin: 0; font-weight: 650; }
.card-head { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 18px; padding: 10px 14px; border-bottom: 1px solid var(--line2); }
.head-grid { display: grid; grid-template-columns: minmax(320px, 1.3fr) minmax(200px, .6fr) minmax(280px, 1.2fr); gap: 10px 22px; padding: 12px 14px; align-items: start; }
@media (max-width: 1100px) { .head-grid { grid-template-columns: 1fr 1fr; } }
table { border-collapse: collapse; }
caption { text-align: left; font-weight: 650; font-size: 13px; color: var(--muted); padding-bottom: 4px; text-transform: uppercase; letter-spacing: .04em; }
.kv th, .counts th { text-align: left; font-weight: 500; color: var(--muted); padding: 2px 14px 2px 0; white-space: nowrap; vertical-align: top; }
.kv td, .counts td { padding: 2px 0; word-break: break-word; }
.kv td code { background: none; }
.counts td { text-align: right; font-variant-numeric: tabular-nums; font-weight: 600; min-width: 3em; }
.counts tr.bad td, .counts tr.bad th { color: #b91c1c; }
.slowest { width: 100%; font-size: 13px; margin-bottom: 8px; }
.slowest th, .slowest td { text-align: left; padding: 2px 8px 2px 0; border-bottom: 1px solid var(--line2); }
.slowest td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.lists h3 { font-size: 13px; margin: 8px 0 2px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.lists ul { margin: 0; padding-left: 18px; }
.lists details summary { cursor: pointer; color: #1d4ed8; font-size: 13px; margin: 2px 0 0 2px; }
.lists p { margin: 2px 0; font-size: 13px; color: var(--muted); }
.warn { color: #991b1b; font-weight: 600; }
footer { color: var(--muted); font-size: 12px; margin-top: 18px; }
`;

/** The report's whole stylesheet, inlined into the page. */
export const PAGE_CSS = VIEW_CSS + REPORT_CSS;
