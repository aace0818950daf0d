/**
 * The protocol revisions mcp-tap checks messages against, and what a revision's shapes are as data:
 * per method the shape of a request's `params` and of its result, per notification its `params`, and
 * the `error` shapes of the codes the revision defines. Each revision's table is its own module
 * (src/spec/<revision>.ts), written from `schema/<revision>/schema.ts` of the specification. Pure.
 */
import type { ZodType } from 'zod';

/** The revisions with shapes, oldest first. */
export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;
export type Revision = (typeof REVISIONS)[number];

/** Whether `s` names a revision mcp-tap has shapes for. */
export const isRevision = (s: unknown): s is Revision => typeof s === 'string' && (REVISIONS as readonly string[]).includes(s);

/** Whether revision `rev` is `first` or later (a feature that arrived in `first`). */
export const since = (rev: Revision, first: Revision): boolean => REVISIONS.indexOf(rev) >= REVISIONS.indexOf(first);

/** One shape: the schema's type name (as the spec names it) and the zod schema that holds it. */
export interface Shape {
  /** The type's name in schema.ts, e.g. `CallToolResult`. */
  name: string;
  schema: ZodType;
}

/** A request method: the shape of its `params` (an optional schema when params may be left out) and of its result. */
export interface RequestShapes {
  params: Shape;
  result: Shape;
  /** The spec page of the method, relative to the revision's root (e.g. `server/tools`). */
  page: string;
}

/** A notification method: the shape of its `params`. */
export interface NotificationShapes {
  params: Shape;
  page: string;
}

/** Everything one revision defines about message bodies. */
export interface RevisionShapes {
  revision: Revision;
  requests: Readonly<Record<string, RequestShapes>>;
  notifications: Readonly<Record<string, NotificationShapes>>;
  /** The error object (`error` of an error response): every code. */
  error: Shape;
  /** Error objects of the codes whose `data` the revision defines (e.g. -32042, -32022). */
  errorCodes: Readonly<Record<number, Shape>>;
  /**
   * The other shapes a result may take, tried before the method's own: a task handle for a
   * task-augmented request (2025-11-25), an `input_required` answer (2026-07-28).
   */
  resultAlternative?: (method: string, result: unknown) => Shape | undefined;
}

const SITE = 'https://modelcontextprotocol.io/specification';

/**
 * The page of the spec that defines a type: the schema reference's anchor where the revision has one
 * (2025-06-18 and later), else its schema.ts.
 */
export function shapeUrl(rev: Revision, typeName: string): string {
  if (since(rev, '2025-06-18')) return `${SITE}/${rev}/schema#${typeName.toLowerCase()}`;
  return `https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/schema/${rev}/schema.ts`;
}

/** The spec page of a method. */
export const pageUrl = (rev: Revision, page: string): string => `${SITE}/${rev}/${page}`;
