/**
 * The fast path's WebAssembly module is compiled from envelope-scan.wat into envelope-wasm.ts (base64):
 * the two must not drift apart. Regenerate with `npm run build:wasm`.
 */
import { describe, expect, it } from 'vitest';
import { ENVELOPE_WASM } from '../../src/protocol/envelope-wasm.js';
import { withTestTools } from '../helpers/test-tools.js';

/** The build script is plain JavaScript (npm run build:wasm runs it with node); its wabt is a test tool, installed when missing. */
const { compileEnvelopeWat } = (await import('../helpers/build-wasm.mjs' as string)) as { compileEnvelopeWat: () => Promise<string> };
const TOOLS = await withTestTools('envelope-wasm.test.ts');

describe.runIf(TOOLS)('envelope-wasm', () => {
  it('is the compiled envelope-scan.wat', async () => {
    const compiled = await compileEnvelopeWat();
    expect(compiled === ENVELOPE_WASM, 'src/protocol/envelope-wasm.ts is stale: run npm run build:wasm').toBe(true);
  });
});
