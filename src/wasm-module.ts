/**
 * A WebAssembly module shipped as base64 (the scanner's, the log's head writer), instantiated at once.
 * The project's lib settings do not declare the WebAssembly global, so only the part used is typed here.
 */

/** The part of the WebAssembly global used here. */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}

/** The exports of the module in `base64` (typed by the caller as its .wat declares them), or null where WebAssembly is unavailable. */
export function instantiateWasm<Exports>(base64: string): Exports | null {
  try {
    const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
    return new wasm.Instance(new wasm.Module(Buffer.from(base64, 'base64'))).exports as Exports;
  } catch {
    return null;
  }
}
