/**
 * The JSON Schema edge of the schema checks: ajv 8, loaded only when check runs, picking the dialect
 * from `$schema` (2020-12 when absent, as MCP 2025-11-25 specifies). When ajv is not installed the
 * structural checks still run and check says that meta-schema validation was skipped.
 */
import type { SchemaValidator } from './schema-check.js';

type Obj = Record<string, unknown>;

interface AjvLike {
  validateSchema(schema: Obj): boolean | Promise<unknown>;
  compile(schema: Obj): unknown;
  errors?: Array<{ instancePath?: string; message?: string }> | null;
  errorsText(errors?: unknown): string;
  removeSchema(schema: Obj): unknown;
}
type AjvCtor = new (opts: Obj) => AjvLike;

const OPTIONS: Obj = { strict: false, validateFormats: false, allErrors: false, logger: false };

/** Which ajv class a `$schema` URI calls for; null for dialects ajv 8 does not validate (draft-04 and older, unknown). */
export function dialectOf(schema: Obj): '2020' | '2019' | '07' | '06' | null {
  const s = schema['$schema'];
  if (s === undefined) return '2020';
  if (typeof s !== 'string') return null;
  if (/json-schema\.org\/draft\/2020-12\/schema/.test(s)) return '2020';
  if (/json-schema\.org\/draft\/2019-09\/schema/.test(s)) return '2019';
  if (/json-schema\.org\/draft-07\/schema/.test(s)) return '07';
  if (/json-schema\.org\/draft-06\/schema/.test(s)) return '06';
  return null;
}

/** The `$schema` each ajv instance knows its meta-schema by: http/https and a missing `#` are the same dialect. */
const CANONICAL: Record<'2020' | '2019' | '07' | '06', string> = {
  '2020': 'https://json-schema.org/draft/2020-12/schema',
  '2019': 'https://json-schema.org/draft/2019-09/schema',
  '07': 'http://json-schema.org/draft-07/schema#',
  '06': 'http://json-schema.org/draft-06/schema#',
};

function firstError(ajv: AjvLike): string {
  const e = ajv.errors?.[0];
  if (!e) return 'rejected by its meta-schema';
  return `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`.trim();
}

/**
 * A named export of a CommonJS module loaded with import(): Node exposes it by name, the bundle's chunk
 * of a CommonJS module only as a member of `default`.
 */
function exported(mod: unknown, name: string): AjvCtor {
  const m = mod as Record<string, unknown> & { default?: Record<string, unknown> };
  return (m[name] ?? m.default?.[name]) as AjvCtor;
}

/** A validator backed by ajv, or null when ajv cannot be loaded. */
export async function loadAjvValidator(): Promise<SchemaValidator | null> {
  let ctors: { '2020': AjvCtor; '2019': AjvCtor; '07': AjvCtor; draft06: Obj };
  try {
    const [a2020, a2019, a07, d06] = await Promise.all([
      import('ajv/dist/2020.js'),
      import('ajv/dist/2019.js'),
      import('ajv'),
      import('ajv/dist/refs/json-schema-draft-06.json', { with: { type: 'json' } }),
    ]);
    ctors = {
      '2020': exported(a2020, 'Ajv2020'),
      '2019': exported(a2019, 'Ajv2019'),
      '07': exported(a07, 'Ajv'),
      draft06: d06.default as Obj,
    };
    if (![ctors['2020'], ctors['2019'], ctors['07']].every((c) => typeof c === 'function')) return null;
  } catch {
    return null;
  }
  // one instance per dialect (building one compiles its meta-schemas: tens of ms); each schema is removed
  // again after compiling, so tools that share an $id do not collide
  const instances = new Map<string, AjvLike>();
  const instance = (dialect: '2020' | '2019' | '07' | '06'): AjvLike => {
    let ajv = instances.get(dialect);
    if (!ajv) {
      ajv = new ctors[dialect === '06' ? '07' : dialect](OPTIONS);
      if (dialect === '06') (ajv as unknown as { addMetaSchema(s: Obj): void }).addMetaSchema(ctors.draft06);
      instances.set(dialect, ajv);
    }
    return ajv;
  };
  return (schema: Obj): string | null => {
    const dialect = dialectOf(schema);
    if (dialect === null) return null;
    const ajv = instance(dialect);
    // the spelling ajv registered the meta-schema under, so every spelling of a dialect is judged by it
    const judged = schema['$schema'] === undefined ? schema : { ...schema, $schema: CANONICAL[dialect] };
    try {
      if (ajv.validateSchema(judged) !== true) return firstError(ajv);
      ajv.compile(judged);
    } catch (err) {
      return (err instanceof Error ? err.message : String(err)).split('\n')[0]!;
    } finally {
      try {
        ajv.removeSchema(judged);
      } catch {
        // not added: nothing to remove
      }
    }
    return null;
  };
}
