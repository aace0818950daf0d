import { chmodSync, existsSync, mkdtempSync, promises as fsPromises, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { readConfigText, writeConfigText } from '../../src/hosts/config-io.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-tap-config-io-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('config file edge', () => {
  it('backs up once, writes atomically with the same mode, leaves no temp files', async () => {
    const file = join(dir, 'a.json');
    writeFileSync(file, 'v1');
    chmodSync(file, 0o640);
    expect(await writeConfigText(file, 'v1', 'v2')).toEqual({ backup: `${file}.mcp-tap.bak` });
    expect(readFileSync(file, 'utf8')).toBe('v2');
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(statSync(`${file}.mcp-tap.bak`).mode & 0o777).toBe(0o640);
    expect(await writeConfigText(file, 'v2', 'v3')).toEqual({});
    expect(readFileSync(`${file}.mcp-tap.bak`, 'utf8')).toBe('v1');
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'a.json.mcp-tap.bak']);
  });

  it('refuses to write when the file changed since it was read', async () => {
    const file = join(dir, 'b.json');
    writeFileSync(file, 'edited by someone else');
    await expect(writeConfigText(file, 'what we read', 'ours')).rejects.toThrow(/changed while mcp-tap was editing it; nothing written/);
    expect(readFileSync(file, 'utf8')).toBe('edited by someone else');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a refused write leaves no backup behind', async () => {
    const file = join(dir, 'refused.json');
    writeFileSync(file, 'edited by someone else');
    await expect(writeConfigText(file, 'what we read', 'ours')).rejects.toThrow(/nothing written/);
    expect(existsSync(`${file}.mcp-tap.bak`)).toBe(false);
  });

  it('a failed write leaves no backup behind, and the next written edit backs up the file as it was then', async () => {
    const file = join(dir, 'failed.json');
    writeFileSync(file, 'original');
    const rename = vi.spyOn(fsPromises, 'rename').mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }));
    try {
      await expect(writeConfigText(file, 'original', 'wrapped')).rejects.toThrow(/cannot write .*EIO/);
    } finally {
      rename.mockRestore();
    }
    expect(readFileSync(file, 'utf8')).toBe('original');
    expect(existsSync(`${file}.mcp-tap.bak`)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('.failed.json'))).toEqual([]);
    // the user edits the file by hand; the next wrap that is written backs up that text
    writeFileSync(file, 'edited');
    expect(await writeConfigText(file, 'edited', 'wrapped')).toEqual({ backup: `${file}.mcp-tap.bak` });
    expect(readFileSync(`${file}.mcp-tap.bak`, 'utf8')).toBe('edited');
  });

  it('writes through a symlink to its target, keeping the link', async () => {
    const target = join(dir, 'real.json');
    const link = join(dir, 'link.json');
    writeFileSync(target, 'old');
    symlinkSync(target, link);
    await writeConfigText(link, 'old', 'new');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('new');
  });

  it('reads: missing is undefined, invalid UTF-8 is refused', async () => {
    expect(await readConfigText(join(dir, 'nope.json'))).toBeUndefined();
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, Buffer.from([0x7b, 0xff, 0x7d]));
    await expect(readConfigText(bad)).rejects.toThrow(/not valid UTF-8/);
  });
});
