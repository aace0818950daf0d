/**
 * Problems in tool definitions that make hosts reject or silently drop a tool: an inputSchema (or
 * outputSchema) that is missing or not an object schema, `required` naming a property the schema does
 * not define, and a schema that is not valid JSON Schema (judged by an injected validator, so this
 * module stays pure and works without one).
 */

/** Validates a schema against its meta-schema: null when valid, else a one-line reason. */
export type SchemaValidator = (schema: Record<string, unknown>) => string | null;

/** The schema rule ids (rules.ts). */
export type SchemaRuleId = 'tool-schema-not-object' | 'tool-schema-required-missing' | 'tool-schema-invalid';

/** One problem in one schema of one tool. */
export interface SchemaProblem {
  ruleId: SchemaRuleId;
  tool: string;
  which: 'inputSchema' | 'outputSchema';
  /** JSON Pointer inside the schema ('' for the root). */
  path: string;
  message: string;
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

/** RFC 6901 escaping of one pointer segment. */
export const pointerSegment = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Subschema-holding keywords: value is one schema, an array of schemas, or a map of schemas. */
const ONE = ['additionalProperties', 'items', 'contains', 'not', 'if', 'then', 'else', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'additionalItems'];
const MANY = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

const MAX_NODES = 10_000;

/** `required` entries with no matching `properties` entry, anywhere in the schema. */
function missingRequired(root: Obj): Array<{ path: string; name: string }> {
  const out: Array<{ path: string; name: string }> = [];
  const seen = new Set<Obj>();
  const stack: Array<{ node: Obj; path: string; depth: number }> = [{ node: root, path: '', depth: 0 }];
  let visited = 0;
  while (stack.length > 0 && visited++ < MAX_NODES) {
    const { node, path, depth } = stack.pop()!;
    if (seen.has(node) || depth > 64) continue;
    seen.add(node);
    const req = node['required'];
    const props = node['properties'];
    // only where the same schema defines properties and no pattern could admit other names
    if (Array.isArray(req) && isObj(props) && node['patternProperties'] === undefined) {
      for (const name of req) {
        if (typeof name === 'string' && !Object.hasOwn(props, name)) out.push({ path, name });
      }
    }
    const push = (child: unknown, p: string) => {
      if (isObj(child)) stack.push({ node: child, path: p, depth: depth + 1 });
    };
    for (const k of ONE) push(node[k], `${path}/${k}`);
    for (const k of MANY) {
      const v = node[k];
      if (Array.isArray(v)) v.forEach((c, i) => push(c, `${path}/${k}/${i}`));
    }
    for (const k of MAP) {
      const v = node[k];
      if (isObj(v)) for (const [name, c] of Object.entries(v)) push(c, `${path}/${k}/${pointerSegment(name)}`);
    }
  }
  return out.sort((a, b) => a.path.localeCompare(b.path) || a.name.localeCompare(b.name));
}

function rootProblem(schema: unknown, which: string): string | null {
  if (schema === undefined) return which === 'inputSchema' ? 'has no inputSchema' : null;
  if (!isObj(schema)) return `${which} is ${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : `a ${typeof schema}`}, not a JSON Schema object`;
  const type = schema['type'];
  if (type === 'object') return null;
  if (type === undefined) return `${which} has no "type": "object" at its root`;
  return `${which} root has "type": ${JSON.stringify(type)}, but tool arguments${which === 'outputSchema' ? ' and structured results' : ''} are objects ("type": "object")`;
}

/** Every schema problem of one tool definition (its `inputSchema` and, when present, `outputSchema`). */
export function checkToolSchemas(name: string, def: Obj, validate?: SchemaValidator): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  for (const which of ['inputSchema', 'outputSchema'] as const) {
    const schema = def[which];
    const root = rootProblem(schema, which);
    if (root !== null) out.push({ ruleId: 'tool-schema-not-object', tool: name, which, path: '', message: `tool ${JSON.stringify(name)} ${root}` });
    if (!isObj(schema)) continue;
    for (const m of missingRequired(schema)) {
      out.push({
        ruleId: 'tool-schema-required-missing',
        tool: name,
        which,
        path: `${m.path}/required`,
        message: `tool ${JSON.stringify(name)}: ${which}${m.path || ' root'} requires ${JSON.stringify(m.name)}, which its "properties" do not define`,
      });
    }
    if (validate) {
      let why: string | null;
      try {
        why = validate(schema);
      } catch (err) {
        why = err instanceof Error ? err.message : String(err);
      }
      if (why !== null) {
        out.push({ ruleId: 'tool-schema-invalid', tool: name, which, path: '', message: `tool ${JSON.stringify(name)}: ${which} is not a valid JSON Schema: ${why}` });
      }
    }
  }
  return out;
}
