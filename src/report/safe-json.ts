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

// C0/C1 controls, DEL, bidi embeddings/overrides/isolates and line separators: shown, never obeyed
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Wire text for display: control and bidi characters made visible as `\x1b`, `\u202e`. */
export function visibleText(text: string): string {
  return text.replace(UNSAFE, (ch) => {
    const code = ch.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
