/**
 * The shapes every method builds on, per revision: ids and tokens, the `params` / result wrappers with
 * their `_meta` (open, but for the keys MCP defines in it), implementation info and the capabilities.
 * Objects are open (zod strips what it does not know and never rejects it), so unknown members,
 * `experimental` and vendor capabilities never fail. Written from schema/<revision>/schema.ts. Pure.
 */
import { IconSchema } from '@modelcontextprotocol/sdk/types.js';
import { z, type ZodRawShape, type ZodType } from 'zod';
import { lazy } from './lazy.js';
import { since, type Revision } from './revision.js';

/** `string | number`: RequestId and ProgressToken (the spec allows any number; JSON-RPC discourages fractions). */
export const idOrToken = z.union([z.string(), z.number()]);

/** A member whose type the spec leaves open but which must be there (`data: unknown`). */
export const present = z.unknown().refine((v) => v !== undefined, { message: 'a value' });

/** An object of any members (TypeScript's `object`, JSON Schema's `"type": "object"`). */
export const anyObject = z.object({});

/** A number from 0 to 1 (priorities: `@minimum 0 @maximum 1`). */
export const unit = z.number().min(0).max(1);

/** `@format byte`: base64 text, as the SDK checks it (atob), so both agree on what is valid. */
export const base64 = z.string().refine(
  (s) => {
    try {
      atob(s);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'base64 text' },
);

/** The logging levels (RFC 5424 names); the same in every revision. */
export const loggingLevel = z.enum(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);

/** One of several object shapes told apart by their `type` literal (content blocks, references). */
export function byType(options: readonly z.ZodObject[]): ZodType {
  return z.discriminatedUnion('type', options as unknown as [z.ZodObject, ...z.ZodObject[]]);
}

/** `icons` (from 2025-11-25): the SDK's Icon shape, which is the spec's. */
export const iconList = z.array(IconSchema).optional();

/** A cursor (opaque string). */
export const cursor = z.string();

/** Members shared by every revision's building blocks. */
export interface BaseShapes {
  implementation: ZodType;
  clientCapabilities: ZodType;
  serverCapabilities: ZodType;
  /** A request's `params` with these members (and `_meta`); `optional`: the request may leave params out. */
  params(members: ZodRawShape, optional?: boolean): ZodType;
  /** A notification's `params` with these members (and `_meta`). */
  notificationParams(members: ZodRawShape, optional?: boolean): ZodType;
  /** A result with these members (and `_meta`; from 2026-07-28 `resultType`). */
  result(members: ZodRawShape): ZodType;
  /** The members of a result, for results built from several parts (2026-07-28: cacheable results). */
  resultMembers: ZodRawShape;
  /** `_meta` of a request, with the keys MCP defines in it checked. */
  requestMeta: z.ZodObject;
}

const cache = new Map<Revision, BaseShapes>();

/** The base shapes of `rev` (built once). */
export function baseShapes(rev: Revision): BaseShapes {
  let b = cache.get(rev);
  if (!b) {
    b = build(rev);
    cache.set(rev, b);
  }
  return b;
}

function build(rev: Revision): BaseShapes {
  const stateless = since(rev, '2026-07-28');
  const listChanged = () => z.object({ listChanged: z.boolean().optional() }).optional();
  const shapes: BaseShapes = lazy<BaseShapes>({
    implementation: () =>
      z.object({
        name: z.string(),
        version: z.string(),
        ...(since(rev, '2025-06-18') ? { title: z.string().optional() } : {}),
        ...(since(rev, '2025-11-25') ? { icons: iconList, description: z.string().optional(), websiteUrl: z.string().optional() } : {}),
      }),
    clientCapabilities: () =>
      z.object({
        experimental: z.unknown().optional(),
        roots: stateless ? anyObject.optional() : listChanged(),
        sampling: (since(rev, '2025-11-25') ? z.object({ context: anyObject.optional(), tools: anyObject.optional() }) : anyObject).optional(),
        ...(since(rev, '2025-06-18') ? { elicitation: (since(rev, '2025-11-25') ? z.object({ form: anyObject.optional(), url: anyObject.optional() }) : anyObject).optional() } : {}),
        ...(rev === '2025-11-25'
          ? {
              tasks: z
                .object({
                  list: anyObject.optional(),
                  cancel: anyObject.optional(),
                  requests: z
                    .object({
                      sampling: z.object({ createMessage: anyObject.optional() }).optional(),
                      elicitation: z.object({ create: anyObject.optional() }).optional(),
                    })
                    .optional(),
                })
                .optional(),
            }
          : {}),
      }),
    serverCapabilities: () =>
      z.object({
        experimental: z.unknown().optional(),
        logging: anyObject.optional(),
        ...(since(rev, '2025-03-26') ? { completions: anyObject.optional() } : {}),
        prompts: listChanged(),
        resources: z.object({ subscribe: z.boolean().optional(), listChanged: z.boolean().optional() }).optional(),
        tools: listChanged(),
        ...(rev === '2025-11-25'
          ? {
              tasks: z
                .object({
                  list: anyObject.optional(),
                  cancel: anyObject.optional(),
                  requests: z.object({ tools: z.object({ call: anyObject.optional() }).optional() }).optional(),
                })
                .optional(),
            }
          : {}),
      }),
    requestMeta: () =>
      stateless
        ? z.object({
            progressToken: idOrToken.optional(),
            'io.modelcontextprotocol/protocolVersion': z.string(),
            'io.modelcontextprotocol/clientInfo': shapes.implementation.optional(),
            'io.modelcontextprotocol/clientCapabilities': shapes.clientCapabilities,
            'io.modelcontextprotocol/logLevel': loggingLevel.optional(),
          })
        : z.object({
            progressToken: idOrToken.optional(),
            ...(rev === '2025-11-25' ? { 'io.modelcontextprotocol/related-task': z.object({ taskId: z.string() }).optional() } : {}),
          }),
    resultMembers: (): ZodRawShape =>
      stateless
        ? { _meta: z.object({ 'io.modelcontextprotocol/serverInfo': shapes.implementation.optional() }).optional(), resultType: z.string() }
        : { _meta: z.unknown().optional() },
    // from 2026-07-28 every request carries _meta (its version and capabilities), so params too
    params: () => (members: ZodRawShape, optional = false): ZodType => {
      const s = z.object({ _meta: stateless ? shapes.requestMeta : shapes.requestMeta.optional(), ...members });
      return optional && !stateless ? s.optional() : s;
    },
    notificationParams: () => {
      const meta = stateless ? z.object({ 'io.modelcontextprotocol/subscriptionId': idOrToken.optional() }).optional() : z.unknown().optional();
      return (members: ZodRawShape, optional = false): ZodType => {
        const s = z.object({ _meta: meta, ...members });
        return optional ? s.optional() : s;
      };
    },
    result: () => (members: ZodRawShape): ZodType => z.object({ ...shapes.resultMembers, ...members }),
  });
  return shapes;
}
