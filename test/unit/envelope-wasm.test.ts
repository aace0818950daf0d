/**
 * The project's WebAssembly modules are compiled from their text (envelope-scan.wat, head-writer.wat) into
 * base64 TypeScript files beside them: the two must not drift apart. Regenerate with `npm run build:wasm`.
 */
import { describe, expect, it } from 'vitest';
import { ENVELOPE_WASM } from '../../src/protocol/envelope-wasm.js';
import { HEAD_WRITER_WASM } from '../../src/log/head-writer-wasm.js';
import { withTestTools } from '../helpers/test-tools.js';

interface WasmModule {
  wat: string;
  out: string;
  name: string;
}
/** The build script is plain JavaScript (npm run build:wasm runs it with node); its wabt is a test tool, installed when missing. */
const { compileWat, MODULES } = (await import('../helpers/build-wasm.mjs' as string)) as { compileWat: (m: WasmModule) => Promise<string>; MODULES: WasmModule[] };
const TOOLS = await withTestTools('envelope-wasm.test.ts');
const SHIPPED: Record<string, string> = { ENVELOPE_WASM, HEAD_WRITER_WASM };

describe.runIf(TOOLS)('the WebAssembly modules', () => {
  it('are both built by npm run build:wasm', () => {
    expect(MODULES.map((m) => m.name).sort()).toEqual(Object.keys(SHIPPED).sort());
  });

  for (const mod of MODULES) {
    it(`${mod.out} is the compiled ${mod.wat}`, async () => {
      const compiled = await compileWat(mod);
      expect(compiled === SHIPPED[mod.name], `src/${mod.out} is stale: run npm run build:wasm`).toBe(true);
    });
  }
});
