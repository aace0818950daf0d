/**
 * The sessions as resources: `mcp-tap://session/<id>` is the session's Markdown export (redacted,
 * sampled when long, as `export` writes it), cut into pages that fit the answer budget
 * (`?page=2`…, each page saying where the next is); resources/list pages through the sessions with a
 * cursor. Handlers for the SDK's low-level Server (McpServer's resource API has no list cursor).
 */
import { McpError, type ListResourcesResult, type ListResourceTemplatesResult, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { InputError } from '../errors.js';
import { markdownChunks } from '../transcript/markdown.js';
import { VERSION } from '../version.js';
import { charsFor, decodeCursor, encodeCursor, offsetOf } from './budget.js';
import { isoTime, type McpContext } from './context.js';
import { parseSessionUri, sessionUri, SESSION_URI_TEMPLATE } from './session-uri.js';

/** Resource not found (the code the specification gives resources/read). */
const RESOURCE_NOT_FOUND = -32002;
/** Sessions per resources/list page. */
const LIST_PAGE = 100;
/** Bodies in the transcript are shortened past this many characters (export's default is 4000). */
const MAX_BODY = 1500;
const MIME = 'text/markdown';

/** resources/list: a resource per session, newest first, LIST_PAGE at a time. */
export async function listSessionResources(ctx: McpContext, cursor: string | undefined): Promise<ListResourcesResult> {
  let offset: number;
  try {
    offset = offsetOf(cursor !== undefined ? decodeCursor('resources/list', {}, cursor) : undefined);
  } catch (err) {
    throw new McpError(-32602, (err as Error).message);
  }
  const all = await ctx.reader.sessions();
  const page = all.slice(offset, offset + LIST_PAGE);
  return {
    resources: page.map(({ log, summary: s }) => ({
      uri: sessionUri(s.id),
      name: `${s.serverName ?? log.name.replace(/\.jsonrpc\.log$/, '')} ${isoTime(s.start) ?? s.id}`,
      description: `${s.messages} messages, ${s.errors + s.toolErrors} errors, ${s.findings} with findings${s.ended ? '' : ', not ended'} (${log.name})`,
      mimeType: MIME,
    })),
    ...(offset + LIST_PAGE < all.length ? { nextCursor: encodeCursor('resources/list', {}, { offset: offset + LIST_PAGE }) } : {}),
  };
}

/** resources/templates/list: the address form of a session. */
export function sessionTemplates(): ListResourceTemplatesResult {
  return {
    resourceTemplates: [{ uriTemplate: SESSION_URI_TEMPLATE, name: 'session', description: 'A recorded session as a Markdown transcript (redacted)', mimeType: MIME }],
  };
}

/** Text cut into pages of at most `max` characters, at line ends where there are any. */
export function pages(text: string, max: number): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + max);
    if (end < text.length) {
      const nl = text.lastIndexOf('\n', end - 1);
      if (nl >= start + max / 2) end = nl + 1;
      // never split a surrogate pair
      else if (/[\ud800-\udbff]/.test(text[end - 1]!)) end--;
    }
    out.push(text.slice(start, end));
    start = end;
  }
  return out.length > 0 ? out : [''];
}

/** resources/read of a session address: one page of its transcript. */
export async function readSessionResource(ctx: McpContext, uri: string): Promise<ReadResourceResult> {
  let found;
  let address: ReturnType<typeof parseSessionUri>;
  try {
    address = parseSessionUri(uri);
    found = await ctx.reader.session(address.id, address.log);
  } catch (err) {
    if (err instanceof InputError) throw new McpError(RESOURCE_NOT_FOUND, ctx.reader.text(err.message), { uri });
    throw err;
  }
  const { kept, plans } = await ctx.reader.page(found, () => {});
  const text = [...markdownChunks(kept, { redacted: true, exporterVersion: VERSION, maxBody: MAX_BODY, plans })].join('');
  // a page's text is escaped once in the JSON answer (newlines, quotes): room for that, and for the pointer to the next page
  const all = pages(text, Math.floor(charsFor(ctx.maxTokens) * 0.8) - 300);
  const page = address.page;
  if (page > all.length) throw new McpError(RESOURCE_NOT_FOUND, `the transcript of session ${found.summary.id} has ${all.length} page${all.length === 1 ? '' : 's'}`, { uri });
  let body = all[page - 1]!;
  if (page < all.length) {
    body += `\n\n… page ${page} of ${all.length}; the transcript goes on at ${sessionUri(found.summary.id, { page: page + 1, ...(address.log !== undefined ? { log: address.log } : {}) })}\n`;
  }
  return { contents: [{ uri, mimeType: MIME, text: body }] };
}
