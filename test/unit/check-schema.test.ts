/** Tool schema checks: root not an object, `required` naming a missing property, invalid JSON Schema (ajv). */
import { beforeAll, describe, expect, it } from 'vitest';
import { dialectOf, loadAjvValidator } from '../../src/check/ajv-validator.js';
import { checkToolSchemas, type SchemaValidator } from '../../src/check/schema-check.js';

const ids = (def: Record<string, unknown>, v?: SchemaValidator) => checkToolSchemas('t', def, v).map((p) => `${p.ruleId} ${p.which}${p.path}`);

describe('structural schema checks', () => {
  it('accepts an object schema whose required names are all defined', () => {
    expect(ids({ inputSchema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } })).toEqual([]);
    expect(ids({ inputSchema: { type: 'object' } })).toEqual([]);
  });

  it('flags a missing inputSchema, a non-object root and a root without type object', () => {
    expect(ids({})).toEqual(['tool-schema-not-object inputSchema']);
    expect(ids({ inputSchema: [] })).toEqual(['tool-schema-not-object inputSchema']);
    expect(ids({ inputSchema: { type: 'array' } })).toEqual(['tool-schema-not-object inputSchema']);
    expect(ids({ inputSchema: { properties: {} } })).toEqual(['tool-schema-not-object inputSchema']);
    expect(ids({ inputSchema: { type: 'object' }, outputSchema: { type: 'string' } })).toEqual(['tool-schema-not-object outputSchema']);
    expect(checkToolSchemas('t', { inputSchema: { type: ['object', 'null'] } })[0]!.message).toContain('"type": ["object","null"]');
  });

  it('flags required names missing from properties, nested too, with a JSON Pointer', () => {
    const def = {
      inputSchema: {
        type: 'object',
        properties: { user: { type: 'object', properties: { name: {} }, required: ['name', 'emial'] }, 'a/b': { type: 'object', properties: {}, required: ['x'] } },
        required: ['user', 'missing'],
      },
    };
    expect(ids(def)).toEqual([
      'tool-schema-required-missing inputSchema/required',
      'tool-schema-required-missing inputSchema/properties/a~1b/required',
      'tool-schema-required-missing inputSchema/properties/user/required',
    ]);
    expect(checkToolSchemas('t', def)[0]!.message).toBe('tool "t": inputSchema root requires "missing", which its "properties" do not define');
  });

  it('does not guess where patternProperties or a sibling schema may define the name', () => {
    expect(ids({ inputSchema: { type: 'object', properties: {}, patternProperties: { '^x': {} }, required: ['xy'] } })).toEqual([]);
    expect(ids({ inputSchema: { type: 'object', allOf: [{ properties: { a: {} } }, { required: ['a'] }] } })).toEqual([]);
  });

  it('survives cyclic and very deep structures', () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    (cyclic['properties'] as Record<string, unknown>)['self'] = cyclic;
    expect(ids({ inputSchema: cyclic })).toEqual([]);
    let deep: Record<string, unknown> = { type: 'object', properties: {}, required: ['z'] };
    for (let i = 0; i < 500; i++) deep = { type: 'object', properties: { n: deep } };
    expect(() => checkToolSchemas('t', { inputSchema: deep })).not.toThrow();
  });

  it('reports what an injected validator says, and a validator that throws', () => {
    expect(ids({ inputSchema: { type: 'object' } }, () => 'bad')).toEqual(['tool-schema-invalid inputSchema']);
    expect(checkToolSchemas('t', { inputSchema: { type: 'object' } }, () => { throw new Error('boom'); })[0]!.message).toContain('boom');
  });
});

describe('ajv validator', () => {
  let validate: SchemaValidator;
  beforeAll(async () => {
    const v = await loadAjvValidator();
    expect(v).not.toBeNull();
    validate = v!;
  });

  it('picks the dialect from $schema (2020-12 when absent)', () => {
    expect(dialectOf({})).toBe('2020');
    expect(dialectOf({ $schema: 'http://json-schema.org/draft-07/schema#' })).toBe('07');
    expect(dialectOf({ $schema: 'https://json-schema.org/draft/2019-09/schema' })).toBe('2019');
    expect(dialectOf({ $schema: 'http://json-schema.org/draft-06/schema#' })).toBe('06');
    expect(dialectOf({ $schema: 'http://json-schema.org/draft-04/schema#' })).toBeNull();
  });

  it('accepts valid schemas of each dialect and unknown keywords', () => {
    expect(validate({ type: 'object', properties: { a: { type: 'string', format: 'email' } }, 'x-extra': 1 })).toBeNull();
    expect(validate({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', items: [{ type: 'string' }] })).toBeNull();
    expect(validate({ $schema: 'http://json-schema.org/draft-06/schema#', type: 'object' })).toBeNull();
    expect(validate({ $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object' })).toBeNull();
  });

  it('rejects invalid schemas and unresolvable $refs with a one-line reason', () => {
    expect(validate({ type: 'object', properties: { w: { type: 'integr' } } })).toMatch(/properties\/w\/type/);
    expect(validate({ type: 'object', required: 'a' })).toMatch(/required/);
    expect(validate({ type: 'object', items: [{ type: 'string' }] })).not.toBeNull(); // array items is draft-07, not 2020-12
    const ref = validate({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } });
    expect(ref).toMatch(/missing/);
    expect(ref).not.toContain('\n');
  });

  it('compiles schemas that share an $id one after the other', () => {
    const s = { $id: 'https://example.com/args', type: 'object', properties: { a: { type: 'string' } } };
    expect(validate(s)).toBeNull();
    expect(validate({ ...s })).toBeNull();
  });

  const DIALECTS = [
    ['draft-06', 'http://json-schema.org/draft-06/schema#'],
    ['draft-07', 'http://json-schema.org/draft-07/schema#'],
    ['draft-07 (https, no #)', 'https://json-schema.org/draft-07/schema'],
    ['2019-09', 'https://json-schema.org/draft/2019-09/schema'],
    ['2019-09 (http)', 'http://json-schema.org/draft/2019-09/schema#'],
    ['2020-12', 'https://json-schema.org/draft/2020-12/schema'],
  ] as const;
  for (const [name, uri] of DIALECTS) {
    it(`meta-validates ${name} like 2020-12: an invalid schema is rejected, a valid one passes`, () => {
      expect(validate({ $schema: uri, type: 'object', properties: { a: { type: 'nonsense' } } })).toBe('/properties/a/type must be equal to one of the allowed values');
      expect(validate({ $schema: uri, type: 'object', required: 'a' })).toBe('/required must be array');
      expect(validate({ $schema: uri, type: 'object', minProperties: -1 })).toBe('/minProperties must be >= 0');
      expect(validate({ $schema: uri, type: 'object', properties: { a: { type: 'string' } }, required: ['a'] })).toBeNull();
    });
  }

  it('does not judge dialects ajv 8 cannot validate', () => {
    expect(validate({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', properties: { a: { type: 'nonsense' } } })).toBeNull();
  });
});
