/**
 * The shapes of the protocol's features per revision: tools, prompts, completion, sampling, roots,
 * elicitation (from 2025-06-18) and tasks (2025-11-25). The method tables of src/spec/<revision>.ts pick
 * from these. Pure.
 */
import { ModelHintSchema, TaskSchema, ToolAnnotationsSchema, ToolChoiceSchema, ToolExecutionSchema } from '@modelcontextprotocol/sdk/types.js';
import { z, type ZodRawShape, type ZodType } from 'zod';
import { lazy } from './lazy.js';
import { since, type Revision } from './revision.js';
import { anyObject, baseShapes, byType, iconList, unit } from './shapes-base.js';
import { contentShapes } from './shapes-content.js';

export interface FeatureShapes {
  tool: ZodType;
  prompt: ZodType;
  promptMessage: ZodType;
  completeParams: ZodRawShape;
  completeResult: ZodRawShape;
  createMessageParams: ZodRawShape;
  createMessageResult: ZodRawShape;
  root: ZodType;
  /** elicitation/create params (from 2025-06-18; the form and URL modes from 2025-11-25). */
  elicitParams: ZodType;
  /** The URL mode's params alone (from 2025-11-25; the data of error -32042 lists them). */
  elicitUrlParams: ZodType;
  elicitResult: ZodRawShape;
  /** 2025-11-25: a request may ask for a task (`task: {ttl?}`). */
  taskAugment: ZodRawShape;
  task: typeof TaskSchema;
}

const cache = new Map<Revision, FeatureShapes>();

/** The feature shapes of `rev` (built once). */
export function featureShapes(rev: Revision): FeatureShapes {
  let f = cache.get(rev);
  if (!f) {
    f = build(rev);
    cache.set(rev, f);
  }
  return f;
}

function build(rev: Revision): FeatureShapes {
  const c = contentShapes(rev);
  const b = baseShapes(rev);
  const stateless = since(rev, '2026-07-28');
  const titled = since(rev, '2025-06-18') ? { title: z.string().optional() } : {};
  const icons = since(rev, '2025-11-25') ? { icons: iconList } : {};
  const taskAugment: ZodRawShape = rev === '2025-11-25' ? { task: z.object({ ttl: z.number().optional() }).optional() } : {};
  let elicit: { elicitParams: ZodType; elicitUrlParams: ZodType } | undefined;
  const elicitation = () => (elicit ??= elicitParams(rev, b, taskAugment));

  const f: FeatureShapes = lazy<FeatureShapes>({
    tool: () => {
      // inputSchema: an object schema; from 2026-07-28 any JSON Schema members beside type
      const objectSchema = stateless
        ? z.object({ $schema: z.string().optional(), type: z.literal('object') })
        : z.object({
            ...(since(rev, '2025-11-25') ? { $schema: z.string().optional() } : {}),
            type: z.literal('object'),
            properties: z.record(z.string(), anyObject).optional(),
            required: z.array(z.string()).optional(),
          });
      return z.object({
        name: z.string(),
        ...titled,
        description: z.string().optional(),
        inputSchema: objectSchema,
        ...(since(rev, '2025-06-18') ? { outputSchema: (stateless ? z.object({ $schema: z.string().optional() }) : objectSchema).optional() } : {}),
        ...(since(rev, '2025-03-26') ? { annotations: ToolAnnotationsSchema.optional() } : {}),
        ...(rev === '2025-11-25' ? { execution: ToolExecutionSchema.optional() } : {}),
        ...icons,
      });
    },
    prompt: () =>
      z.object({
        name: z.string(),
        ...titled,
        description: z.string().optional(),
        arguments: z.array(z.object({ name: z.string(), ...titled, description: z.string().optional(), required: z.boolean().optional() })).optional(),
        ...icons,
      }),
    promptMessage: () => z.object({ role: c.role, content: c.contentBlock }),
    completeParams: () => ({
      ref: byType([z.object({ type: z.literal('ref/prompt'), name: z.string(), ...titled }), z.object({ type: z.literal('ref/resource'), uri: z.string() })]),
      argument: z.object({ name: z.string(), value: z.string() }),
      ...(since(rev, '2025-06-18') ? { context: z.object({ arguments: z.record(z.string(), z.string()).optional() }).optional() } : {}),
    }),
    completeResult: () => ({
      completion: z.object({ values: z.array(z.string()).max(100), total: z.number().optional(), hasMore: z.boolean().optional() }),
    }),
    createMessageParams: () => ({
      messages: z.array(z.object({ role: c.role, content: c.samplingContent })),
      modelPreferences: z
        .object({ hints: z.array(ModelHintSchema).optional(), costPriority: unit.optional(), speedPriority: unit.optional(), intelligencePriority: unit.optional() })
        .optional(),
      systemPrompt: z.string().optional(),
      includeContext: z.enum(['none', 'thisServer', 'allServers']).optional(),
      temperature: z.number().optional(),
      maxTokens: z.number(),
      stopSequences: z.array(z.string()).optional(),
      metadata: anyObject.optional(),
      ...(since(rev, '2025-11-25') ? { tools: z.array(f.tool).optional(), toolChoice: ToolChoiceSchema.optional() } : {}),
      ...taskAugment,
    }),
    createMessageResult: () => ({ role: c.role, content: c.samplingContent, model: z.string(), stopReason: z.string().optional() }),
    root: () => z.object({ uri: z.string(), name: z.string().optional() }),
    elicitParams: () => elicitation().elicitParams,
    elicitUrlParams: () => elicitation().elicitUrlParams,
    elicitResult: () => ({
      action: z.enum(['accept', 'decline', 'cancel']),
      content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), ...(since(rev, '2025-11-25') ? [z.array(z.string())] : [])])).optional(),
    }),
    taskAugment: () => taskAugment,
    task: () => TaskSchema,
  });
  return f;
}

/** elicitation/create params: a form (a flat object schema of primitives), from 2025-11-25 also a URL to open. */
function elicitParams(rev: Revision, b: ReturnType<typeof baseShapes>, taskAugment: ZodRawShape): { elicitParams: ZodType; elicitUrlParams: ZodType } {
  const late = since(rev, '2025-11-25');
  const described = { title: z.string().optional(), description: z.string().optional() };
  const str = z.object({
    type: z.literal('string'),
    ...described,
    minLength: z.number().optional(),
    maxLength: z.number().optional(),
    format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
    ...(late ? { default: z.string().optional() } : {}),
  });
  const num = z.object({ type: z.enum(['number', 'integer']), ...described, minimum: z.number().optional(), maximum: z.number().optional(), ...(late ? { default: z.number().optional() } : {}) });
  const bool = z.object({ type: z.literal('boolean'), ...described, default: z.boolean().optional() });
  const options = z.array(z.object({ const: z.string(), title: z.string() }));
  const enums: ZodType[] = late
    ? [
        z.object({ type: z.literal('string'), ...described, enum: z.array(z.string()), enumNames: z.array(z.string()).optional(), default: z.string().optional() }),
        z.object({ type: z.literal('string'), ...described, oneOf: options, default: z.string().optional() }),
        z.object({
          type: z.literal('array'),
          ...described,
          minItems: z.number().optional(),
          maxItems: z.number().optional(),
          items: z.union([z.object({ type: z.literal('string'), enum: z.array(z.string()) }), z.object({ anyOf: options })]),
          default: z.array(z.string()).optional(),
        }),
      ]
    : [z.object({ type: z.literal('string'), ...described, enum: z.array(z.string()), enumNames: z.array(z.string()).optional() })];
  const primitive = z.union([str, num, bool, ...enums] as unknown as [ZodType, ZodType, ...ZodType[]]);
  const requestedSchema = z.object({
    ...(late ? { $schema: z.string().optional() } : {}),
    type: z.literal('object'),
    properties: z.record(z.string(), primitive),
    required: z.array(z.string()).optional(),
  });
  const stateless = since(rev, '2026-07-28');
  // 2026-07-28: an input request inside an input_required result, without a _meta of its own
  const wrap = (members: ZodRawShape): z.ZodObject => (stateless ? z.object(members) : (b.params({ ...members, ...taskAugment }) as z.ZodObject));
  const form = wrap({ ...(late ? { mode: z.literal('form').optional() } : {}), message: z.string(), requestedSchema });
  if (!late) return { elicitParams: form, elicitUrlParams: z.never() };
  const url = wrap({ mode: z.literal('url'), message: z.string(), ...(stateless ? {} : { elicitationId: z.string() }), url: z.string() });
  return { elicitParams: z.union([url, form]), elicitUrlParams: url };
}
