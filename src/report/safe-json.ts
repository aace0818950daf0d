/**
 * Text that goes into the page: JSON for a `<script type="application/json">` block and HTML-escaped
 * text. Wire data is hostile: it must never close the script element or open markup.
 */

/**
 * JSON for embedding in a script element: every `<` becomes `\u003c`, so no `</script`, `<!--` or
 * `<script` can appear, whatever the strings hold. JSON.parse reads it back unchanged.
 */
export function jsonForScript(value: unknown): string {
  return escapeJsonForScript(JSON.stringify(value) ?? 'null');
}

/** The same for text that already is JSON. */
export function escapeJsonForScript(json: string): string {
  return json.replace(/</g, '\\u003c');
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an HTML text node or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** Wire text for display: control and bidi characters made visible as `\x1b`, `\u202e` (the view's own rule). */
export { vis as visibleText } from '../session-view/text.js';
