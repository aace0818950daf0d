/**
 * The texts of a listed definition that reach the model: names, titles, descriptions, the descriptions
 * and property names inside its schemas, prompt arguments. Pure and bounded (depth and count), each
 * text with where it sits, for findings that say exactly where.
 */

/** What kind of definition: a listing item or the server's `instructions`. */
export type DefinitionKind = 'tool' | 'prompt' | 'resource' | 'resource template' | 'instructions';

/** One text and where it is (`description`, `inputSchema.properties.path.description`). */
export interface DefinitionText {
  where: string;
  text: string;
  /** A name (checked for confusables), a key of a schema, or prose (checked for injection). */
  role: 'name' | 'prose' | 'key';
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

const MAX_DEPTH = 24;
const MAX_TEXTS = 2000;
const SAFE_KEY = /^[A-Za-z_$][\w$-]*$/;
const step = (path: string, key: string): string => (SAFE_KEY.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`);

/** The descriptions, titles and property names of a JSON Schema, at any depth. */
function schemaTexts(schema: unknown, path: string, out: DefinitionText[], depth = 0): void {
  if (out.length >= MAX_TEXTS || depth > MAX_DEPTH) return;
  if (Array.isArray(schema)) {
    schema.forEach((s, i) => schemaTexts(s, `${path}[${i}]`, out, depth + 1));
    return;
  }
  if (!isObj(schema)) return;
  for (const [k, v] of Object.entries(schema)) {
    if ((k === 'description' || k === 'title') && typeof v === 'string') out.push({ where: step(path, k), text: v, role: 'prose' });
    else if ((k === 'properties' || k === 'patternProperties' || k === '$defs' || k === 'definitions') && isObj(v)) {
      for (const [name, sub] of Object.entries(v)) {
        if (k === 'properties') out.push({ where: step(step(path, k), name), text: name, role: 'key' });
        schemaTexts(sub, step(step(path, k), name), out, depth + 1);
      }
    } else if (typeof v === 'object' && v !== null && k !== 'default' && k !== 'examples' && k !== 'const' && k !== 'enum') {
      schemaTexts(v, step(path, k), out, depth + 1);
    }
  }
}

/** The model-facing texts of one definition of `kind`. */
export function definitionTexts(kind: DefinitionKind, def: unknown): DefinitionText[] {
  const out: DefinitionText[] = [];
  if (kind === 'instructions') {
    if (typeof def === 'string') out.push({ where: 'instructions', text: def, role: 'prose' });
    return out;
  }
  if (!isObj(def)) return out;
  const str = (k: string, role: DefinitionText['role']) => {
    const v = def[k];
    if (typeof v === 'string') out.push({ where: k, text: v, role });
  };
  str('name', 'name');
  str('title', 'prose');
  str('description', 'prose');
  if (kind === 'resource' || kind === 'resource template') {
    str('uri', 'key');
    str('uriTemplate', 'key');
  }
  if (kind === 'tool') {
    if (isObj(def['annotations']) && typeof def['annotations']['title'] === 'string') {
      out.push({ where: 'annotations.title', text: def['annotations']['title'], role: 'prose' });
    }
    schemaTexts(def['inputSchema'], 'inputSchema', out);
    schemaTexts(def['outputSchema'], 'outputSchema', out);
  }
  if (kind === 'prompt' && Array.isArray(def['arguments'])) {
    def['arguments'].slice(0, 200).forEach((a, i) => {
      if (!isObj(a)) return;
      for (const k of ['name', 'title', 'description'] as const) {
        const v = a[k];
        if (typeof v === 'string') out.push({ where: `arguments[${i}].${k}`, text: v, role: k === 'name' ? 'key' : 'prose' });
      }
    });
  }
  return out.slice(0, MAX_TEXTS);
}
