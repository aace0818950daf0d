/**
 * HAR checks for the tests: the HAR 1.2 schema written from the specification text
 * (test/fixtures/har/har-1.2.schema.json), validated with ajv, plus the rule the schema cannot say:
 * an entry's `time` is the sum of its timings.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { ROOT } from './paths.js';

const schema = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'har', 'har-1.2.schema.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; headers: Array<{ name: string; value: string }>; queryString: unknown[]; postData?: { mimeType: string; text: string }; bodySize: number };
  response: { status: number; statusText: string; headers: Array<{ name: string; value: string }>; content: { size: number; mimeType: string; text?: string; _sseEvents?: Array<{ time: string; ms: number; id?: string; event?: string }> } };
  timings: { send: number; wait: number; receive: number };
  comment?: string;
  _mcpTap: { session: string; x: number; incomplete?: boolean; cut?: boolean };
}
export interface Har {
  log: { version: string; creator: { name: string; version: string }; entries: HarEntry[] };
}

/** Every problem of a HAR document (empty when it passes). */
export function harProblems(doc: unknown): string[] {
  const out: string[] = [];
  if (!validate(doc)) for (const e of validate.errors ?? []) out.push(`${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  const entries = (doc as Har | null)?.log?.entries ?? [];
  entries.forEach((e, i) => {
    const sum = e.timings.send + e.timings.wait + e.timings.receive;
    if (Math.abs(sum - e.time) > 0.002) out.push(`entries[${i}].time ${e.time} is not the sum of its timings (${sum})`);
  });
  return out;
}

/** A request as Chromium's own HAR import made it (DevTools' Network panel "Import HAR file"). */
export interface ImportedRequest {
  url: string;
  method: string;
  status: number;
  mimeType: string;
  /** Seconds since the epoch, as DevTools keeps them. */
  startTime: number;
  endTime: number;
  /** The posted body, as the Payload tab shows it. */
  postData: string | null;
  /** The response body, as the Response tab shows it. */
  content: string | null;
}

/**
 * Imports a HAR text with the importer of Chromium's own DevTools (its bundled front end's
 * models/har: HARRoot, then Importer.requestsFromHARLog, what the Network panel's HAR import runs), in
 * Debian's chromium driven by playwright; resolves to the requests it made of the entries.
 */
export async function devtoolsImport(text: string, executablePath: string): Promise<ImportedRequest[]> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    const page = await browser.newPage();
    await page.goto('devtools://devtools/bundled/devtools_app.html');
    // a string, so the test runner's transform leaves the page's own import() alone
    return (await page.evaluate(`(async (text) => {
      const HAR = await import('./models/har/har.js');
      const root = new HAR.HARFormat.HARRoot(JSON.parse(text));
      const requests = HAR.Importer.Importer.requestsFromHARLog(root.log);
      return Promise.all(requests.map(async (r) => {
        const content = await r.requestContentData();
        return {
          url: r.url(), method: r.requestMethod, status: r.statusCode, mimeType: r.mimeType,
          startTime: r.startTime, endTime: r.endTime,
          postData: (await r.requestFormData()) ?? null,
          content: content && typeof content.text === 'string' ? content.text : null,
        };
      }));
    })(${JSON.stringify(text)})`)) as ImportedRequest[];
  } finally {
    await browser.close();
  }
}
