/**
 * The findings the analysis writes as `notes: [{code, text}]`. Codes are a public contract (listed in
 * docs/log-format.md; a test compares this list with the doc); texts are for people and may change.
 * Each rule lives where its state lives (pairing, lifecycle, session); this module names every rule and
 * builds its note so the wording stays in one place.
 */
import type { Note } from '../log/record.js';
import { showId } from '../protocol/jsonrpc.js';

/** Every note code the analysis can emit, with a one-line summary (docs/log-format.md explains each). */
export const NOTE_CODES = {
  'stdout-not-json': 'a line on the server’s stdout is not JSON; hosts reject it',
  'stdin-not-json': 'a line from the client is not JSON',
  'not-jsonrpc': 'JSON that is not a valid JSON-RPC 2.0 message, or a message with a structural defect',
  'invalid-utf8': 'the line is not valid UTF-8',
  'partial-line': 'the stream ended before the line’s newline',
  truncated: 'the line is larger than the log limit; the log keeps a shortened copy',
  'unknown-id': 'an answer to an id that was never requested (or a result with id null)',
  'duplicate-answer': 'a second answer to a request that was already answered',
  'id-reused': 'a request id reused while its request is pending (or, before 2026-07-28, at all)',
  'null-id-request': 'a request with id null',
  'result-and-error': 'an answer carrying both result and error',
  'before-initialize': 'a request sent before the initialize handshake allows it',
  'cancel-initialize': 'notifications/cancelled for the initialize request',
  'cancel-unknown-id': 'notifications/cancelled for a request that was never sent',
  'progress-unknown-token': 'progress for a token no active request carries',
  'progress-not-increasing': 'progress that does not increase',
  'progress-token-reused': 'a progress token already used by another active request',
  'method-wrong-direction': 'a method sent by the side that must not send it',
  'method-wrong-kind': 'a request method sent as a notification, or the reverse',
  'method-not-in-version': 'a method that is not part of the protocol version in use',
  'version-not-offered': 'a 2026-07-28 request with a protocol version the server does not list as supported',
  'missing-protocol-version': 'a 2026-07-28 request without _meta protocolVersion',
  'header-mismatch': 'a 2026-07-28 HTTP request whose MCP-Protocol-Version, Mcp-Method or Mcp-Name header is missing or disagrees with its body',
  'batch-not-allowed': 'a JSON-RPC batch where the protocol version does not allow one',
  'empty-batch': 'an empty array `[]`',
  'pending-overflow': 'too many unanswered requests; the oldest is no longer tracked',
  'analysis-error': 'mcp-tap failed to analyse this message (a bug in mcp-tap, not in the peers)',
} as const;

export type NoteCode = keyof typeof NOTE_CODES;

/** The list of codes, for docs and tests. */
export const NOTE_CODE_LIST = Object.keys(NOTE_CODES) as NoteCode[];

type Side = 'client' | 'server';
const peerOf = (s: Side): Side => (s === 'client' ? 'server' : 'client');

/** Builders: one per rule, each returns the note to attach. */
export const notes = {
  notJson(from: Side, empty: boolean): Note {
    if (from === 'server') {
      return {
        code: 'stdout-not-json',
        text: empty
          ? 'empty line on the server’s stdout: hosts expect one JSON-RPC message per line and will report or reject it'
          : 'the server wrote a line that is not JSON to stdout: hosts expect only JSON-RPC messages there and will reject it (write logs to stderr instead)',
      };
    }
    return {
      code: 'stdin-not-json',
      text: empty
        ? 'empty line from the client: the server expects one JSON-RPC message per line'
        : 'the client sent a line that is not JSON: the server cannot read it',
    };
  },
  notJsonRpc(defect: string): Note {
    return { code: 'not-jsonrpc', text: `not a valid JSON-RPC 2.0 message: ${defect}` };
  },
  invalidUtf8(): Note {
    return {
      code: 'invalid-utf8',
      text: 'the line is not valid UTF-8 (MCP messages must be UTF-8); the log shows U+FFFD for the bad bytes',
    };
  },
  partialLine(from: Side): Note {
    return {
      code: 'partial-line',
      text: `the ${from}’s stream ended before this line’s newline: the ${peerOf(from)} never received it as a message`,
    };
  },
  truncated(bytes: number, limit: number): Note {
    return {
      code: 'truncated',
      text: `line of ${bytes} bytes is larger than the log limit (${limit} bytes): the relay forwarded it whole, the log keeps a shortened copy`,
    };
  },
  unknownId(id: unknown, from: Side): Note {
    const text =
      id === null || id === undefined
        ? `a result with ${id === null ? 'id null' : 'no id'} answers no request: only error answers may lack an id`
        : `answer to id ${showId(id)}, which the ${peerOf(from)} never sent as a request (ids compare with their type: 1 and "1" differ)`;
    return { code: 'unknown-id', text };
  },
  duplicateAnswer(id: unknown, reqSeq: number, firstAnswerSeq: number): Note {
    return {
      code: 'duplicate-answer',
      text: `request ${showId(id)} (seq ${reqSeq}) was already answered at seq ${firstAnswerSeq}; this second answer will be ignored or misrouted`,
    };
  },
  idReusedPending(id: unknown, prevSeq: number): Note {
    return {
      code: 'id-reused',
      text: `id ${showId(id)} is already used by request seq ${prevSeq}, still unanswered: answers become ambiguous (paired first in, first out)`,
    };
  },
  idReusedSession(id: unknown, prevSeq: number): Note {
    return {
      code: 'id-reused',
      text: `id ${showId(id)} was already used by request seq ${prevSeq} in this session: MCP forbids reusing request ids within a session`,
    };
  },
  nullIdRequest(): Note {
    return {
      code: 'null-id-request',
      text: 'request with id null: MCP requires a string or integer id; its answer cannot be paired (not tracked)',
    };
  },
  resultAndError(): Note {
    return {
      code: 'result-and-error',
      text: 'answer has both "result" and "error": a response must carry exactly one of them',
    };
  },
  beforeInitializeClient(method: string): Note {
    return {
      code: 'before-initialize',
      text: `the client sent ${method} before the server answered initialize: only ping is allowed until then`,
    };
  },
  beforeInitializeServer(method: string): Note {
    return {
      code: 'before-initialize',
      text: `the server sent the request ${method} before the client's notifications/initialized: only ping (and logging) is allowed until then`,
    };
  },
  cancelInitialize(): Note {
    return { code: 'cancel-initialize', text: 'initialize must never be cancelled' };
  },
  cancelUnknownId(id: unknown, from: Side): Note {
    return {
      code: 'cancel-unknown-id',
      text: `cancels id ${showId(id)}, but the ${from} never sent a request with that id (ids compare with their type)`,
    };
  },
  progressUnknownToken(token: unknown): Note {
    return {
      code: 'progress-unknown-token',
      text: `progress for token ${showId(token)}, which no active request carries in _meta.progressToken (tokens compare with their type)`,
    };
  },
  progressNotIncreasing(progress: number, last: number): Note {
    return {
      code: 'progress-not-increasing',
      text: `progress ${progress} does not increase (previous: ${last}): progress must increase with each notification`,
    };
  },
  progressTokenReused(token: unknown, prevSeq: number): Note {
    return {
      code: 'progress-token-reused',
      text: `progress token ${showId(token)} is already carried by active request seq ${prevSeq}: tokens must be unique among active requests`,
    };
  },
  versionNotOffered(text: string): Note {
    return { code: 'version-not-offered', text };
  },
  missingProtocolVersion(): Note {
    return {
      code: 'missing-protocol-version',
      text: 'request without params._meta["io.modelcontextprotocol/protocolVersion"]: required on every request since 2026-07-28',
    };
  },
  headerMismatch(problems: readonly string[]): Note {
    return {
      code: 'header-mismatch',
      text: `routing headers disagree with the body: ${problems.join('; ')} (a 2026-07-28 server must refuse this with 400 and -32020 HeaderMismatch)`,
    };
  },
  batchNotAllowed(version: string | undefined, hasInitialize: boolean): Note {
    return {
      code: 'batch-not-allowed',
      text: hasInitialize
        ? 'initialize must not be part of a JSON-RPC batch'
        : `JSON-RPC batches are not part of MCP ${version} (only 2025-03-26 allowed them); the SDKs reject them on stdio`,
    };
  },
  emptyBatch(): Note {
    return { code: 'empty-batch', text: 'an empty array is not a valid JSON-RPC batch (answered by one -32600 error)' };
  },
  analysisError(err: unknown): Note {
    const why = err instanceof Error ? err.message : String(err);
    return {
      code: 'analysis-error',
      text: `mcp-tap could not analyse this message (${why.slice(0, 200)}); the record is kept and the relay is unaffected — please report it`,
    };
  },
  pendingOverflow(from: Side, cap: number, evictedSeq: number): Note {
    return {
      code: 'pending-overflow',
      text: `more than ${cap} requests from the ${from} are unanswered: the oldest (seq ${evictedSeq}) and any further evicted ones are no longer tracked as pending (counted in the end record)`,
    };
  },
};
