/**
 * What of a definition or a result reaches the model's context, as text: the part a host copies into
 * its request to the model. Tools: `{name, description, inputSchema}` as JSON (hosts send those three;
 * title, annotations, outputSchema, icons and _meta stay with the host). Prompts and resources: their
 * listing item without icons, annotations and _meta. Tool results: the text of each content item (an
 * embedded resource's text, a resource link as JSON), or structuredContent as JSON when there is no
 * content; images and audio are counted in bytes only. Pure.
 */

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Which listing a definition comes from. */
export type ListingKind = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

const DROPPED = new Set(['_meta', 'icons', 'annotations']);

/** A tool definition as the host sends it to the model. */
export function toolText(def: Obj): string {
  const out: Obj = {};
  for (const k of ['name', 'description', 'inputSchema']) if (def[k] !== undefined) out[k] = def[k];
  return JSON.stringify(out);
}

/** A listed definition as the model is shown it. */
export function definitionText(kind: ListingKind, def: Obj): string {
  if (kind === 'tools') return toolText(def);
  const out: Obj = {};
  for (const [k, v] of Object.entries(def)) if (!DROPPED.has(k)) out[k] = v;
  return JSON.stringify(out);
}

/** What the log's shortener leaves at the end of a cut string, and in place of elided array elements. */
const ELIDED = /^…\[elided: (\d+) bytes\]$/;

/** A tool result's text for the model (its parts), the bytes of media it carries (not tokenized), and bytes of content the log elided. */
export function resultText(result: Obj): { text: string; parts: string[]; mediaBytes: number; elidedBytes: number } {
  const parts: string[] = [];
  let mediaBytes = 0;
  let elidedBytes = 0;
  const content = Array.isArray(result['content']) ? result['content'] : [];
  for (const c of content) {
    const elided = typeof c === 'string' ? ELIDED.exec(c) : null;
    if (elided) elidedBytes += Number(elided[1]);
    if (!isObj(c)) continue;
    if (c['type'] === 'text' && typeof c['text'] === 'string') parts.push(c['text']);
    else if ((c['type'] === 'image' || c['type'] === 'audio') && typeof c['data'] === 'string') mediaBytes += c['data'].length;
    else if (c['type'] === 'resource' && isObj(c['resource'])) {
      const r = c['resource'];
      if (typeof r['text'] === 'string') parts.push(r['text']);
      else if (typeof r['blob'] === 'string') mediaBytes += r['blob'].length;
    } else if (c['type'] === 'resource_link') {
      const { _meta: _m, icons: _i, annotations: _a, ...link } = c;
      parts.push(JSON.stringify(link));
    }
  }
  if (parts.length === 0 && mediaBytes === 0 && result['structuredContent'] !== undefined) parts.push(JSON.stringify(result['structuredContent']));
  return { text: parts.join('\n'), parts, mediaBytes, elidedBytes };
}

/** `head…[truncated: N bytes]`: a string the log cut, N the bytes of the whole string as sent (JSON-escaped). */
export const TRUNCATED_TAIL = /…\[truncated: (\d+) bytes\]$/;

/** UTF-8 length of a string, without encoding it. */
export function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}
