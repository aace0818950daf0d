/**
 * Content and resources per revision: annotations, the content blocks a tool result or prompt may carry
 * (audio from 2025-03-26; resource links from 2025-06-18), what sampling messages may carry (tool use and
 * tool results from 2025-11-25), resources, templates and resource contents. Pure.
 */
import { RoleSchema, ToolUseContentSchema } from '@modelcontextprotocol/sdk/types.js';
import { z, type ZodType } from 'zod';
import { lazy } from './lazy.js';
import { since, type Revision } from './revision.js';
import { anyObject, base64, byType, iconList, unit } from './shapes-base.js';

export interface ContentShapes {
  role: ZodType;
  annotations: ZodType;
  resource: ZodType;
  resourceTemplate: ZodType;
  /** TextResourceContents | BlobResourceContents. */
  resourceContents: ZodType;
  /** ContentBlock (tool results, prompt messages). */
  contentBlock: ZodType;
  /** What a sampling message's `content` may be. */
  samplingContent: ZodType;
}

const cache = new Map<Revision, ContentShapes>();

/** The content shapes of `rev` (built once). */
export function contentShapes(rev: Revision): ContentShapes {
  let c = cache.get(rev);
  if (!c) {
    c = build(rev);
    cache.set(rev, c);
  }
  return c;
}

function build(rev: Revision): ContentShapes {
  const titled = since(rev, '2025-06-18') ? { title: z.string().optional() } : {};
  const icons = since(rev, '2025-11-25') ? { icons: iconList } : {};
  const withAudio = since(rev, '2025-03-26');
  const annotated = () => ({ annotations: c.annotations.optional() });
  const resourceMembers = () => ({
    uri: z.string(),
    name: z.string(),
    ...titled,
    description: z.string().optional(),
    mimeType: z.string().optional(),
    size: z.number().optional(),
    ...annotated(),
    ...icons,
  });
  const blocks = lazy({
    text: () => z.object({ type: z.literal('text'), text: z.string(), ...annotated() }),
    image: () => z.object({ type: z.literal('image'), data: base64, mimeType: z.string(), ...annotated() }),
    audio: () => z.object({ type: z.literal('audio'), data: base64, mimeType: z.string(), ...annotated() }),
    embedded: () => z.object({ type: z.literal('resource'), resource: c.resourceContents, ...annotated() }),
    link: () => z.object({ type: z.literal('resource_link'), ...resourceMembers() }),
  });
  const c: ContentShapes = lazy<ContentShapes>({
    role: () => RoleSchema,
    annotations: () =>
      z.object({
        audience: z.array(RoleSchema).optional(),
        priority: unit.optional(),
        ...(since(rev, '2025-06-18') ? { lastModified: z.string().optional() } : {}),
      }),
    resource: () => z.object(resourceMembers()),
    resourceTemplate: () =>
      z.object({
        uriTemplate: z.string(),
        name: z.string(),
        ...titled,
        description: z.string().optional(),
        mimeType: z.string().optional(),
        ...annotated(),
        ...icons,
      }),
    resourceContents: () => {
      const contents = { uri: z.string(), mimeType: z.string().optional() };
      return z.union([z.object({ ...contents, text: z.string() }), z.object({ ...contents, blob: base64 })]);
    },
    contentBlock: () =>
      byType([blocks.text, blocks.image, ...(withAudio ? [blocks.audio] : []), ...(since(rev, '2025-06-18') ? [blocks.link] : []), blocks.embedded]),
    samplingContent: () => {
      if (!since(rev, '2025-11-25')) return byType([blocks.text, blocks.image, ...(withAudio ? [blocks.audio] : [])]);
      const toolResult = z.object({
        type: z.literal('tool_result'),
        toolUseId: z.string(),
        content: z.array(c.contentBlock),
        structuredContent: since(rev, '2026-07-28') ? z.unknown().optional() : anyObject.optional(),
        isError: z.boolean().optional(),
      });
      const block = byType([blocks.text, blocks.image, blocks.audio, ToolUseContentSchema, toolResult]);
      return z.union([block, z.array(block)]);
    },
  });
  return c;
}
