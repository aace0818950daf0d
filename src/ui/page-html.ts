/**
 * The live page's HTML: a shell around the session view's markup (src/session-view/markup.ts), its
 * stylesheet and its bundled script inline, and the CSP that allows exactly those two (by hash),
 * requests to this origin only, and nothing else.
 */
import { createHash } from 'node:crypto';
import { escapeHtml } from '../report/safe-json.js';
import { sessionViewHtml } from '../session-view/markup.js';
import { LIVE_CSS } from './page-style.js';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const BODY = `<header class="top"><h1>mcp-tap live</h1><span id="conn" class="conn">connecting…</span>
<span class="top-notice">Every session of every log, live. Bodies are redacted like export unless you reveal them.</span>
<label class="reveal" title="Show bodies as logged, secrets included, in this tab until it is closed or reloaded"><input type="checkbox" id="reveal"> Reveal secrets</label></header>
<div id="problems" class="problems" role="alert" hidden></div>
<main class="cols">
<aside class="sessions" aria-label="Sessions"><select id="f-server" aria-label="Server"></select><div id="session-list"></div></aside>
<section class="session" aria-label="Selected session">
${sessionViewHtml({ bodies: false })}
</section>
</main>`;

/** The page and its Content-Security-Policy. */
export function livePage(script: string, version: string): { html: string; csp: string } {
  const csp = [
    "default-src 'none'",
    `script-src ${hash(script)}`,
    `style-src ${hash(LIVE_CSS)}`,
    "connect-src 'self'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="mcp-tap ${escapeHtml(version)}">
<title>mcp-tap live</title>
<style>${LIVE_CSS}</style>
</head>
<body>
${BODY}
<script>${script}</script>
</body>
</html>
`;
  return { html, csp };
}
