/**
 * The header of a session transcript as label → value rows, shared by the Markdown export and the HTML
 * report so both say the same things in the same order; each passes its own escaping.
 */
import { unendedState } from '../platform/process-alive.js';
import { formatCommandLine, formatMs, formatTime } from './format.js';
import { describeImplementation, type SessionHeader } from './session-header.js';

/** How one output format shows wire text (`code`) and plain text (`text`), and what stands for nothing. */
export interface HeaderStyle {
  code: (text: string) => string;
  text: (text: string) => string;
  dash: string;
}

/** Label → value, in display order. `alive` tells whether mcp-tap's pid still runs here (injected in tests). */
export function headerRows(h: SessionHeader, style: HeaderStyle, alive?: (pid: number) => boolean): Array<[string, string]> {
  const { code, text, dash } = style;
  const cmd = h.command !== undefined ? code(formatCommandLine(h.command, h.args)) : dash;
  let protocol = h.protocolVersion !== undefined ? code(h.protocolVersion) : dash;
  if (h.offeredVersion !== undefined && h.offeredVersion !== h.protocolVersion) protocol += ` (client offered ${code(h.offeredVersion)})`;
  if (h.era === 'stateless') protocol += ' (stateless, no initialize)';
  let exit: string;
  if (h.spawnError !== undefined) exit = `not started: ${code(h.spawnError)}`;
  else if (h.exit) exit = h.exit.signal ? `signal ${code(h.exit.signal)}` : `code ${h.exit.code ?? dash}`;
  else if (h.ended) exit = 'no exit recorded';
  else exit = unendedState(h.pid, alive) === 'killed' ? 'none: mcp-tap was killed (no exit or end record, and its process is gone)' : 'no exit recorded (mcp-tap is still running)';
  const impl = (v: unknown) => {
    const d = describeImplementation(v);
    return d === undefined ? dash : code(d);
  };
  const os = [h.platform, h.arch].filter((x) => x !== undefined).join(' ');
  return [
    ['Server command', cmd],
    ['Server', impl(h.serverInfo)],
    ['Client', impl(h.clientInfo)],
    ['Protocol version', protocol],
    ['Started', Number.isFinite(h.start) && h.start > 0 ? text(formatTime(h.start)) : dash],
    ['Duration', text(formatMs(h.durationMs))],
    ['Exit', exit],
    ['mcp-tap', h.mcpTapVersion !== undefined ? code(h.mcpTapVersion) : dash],
    ['Node.js', h.node !== undefined ? code(h.node) : dash],
    ['OS', os ? code(os) : dash],
    ['Session', code(h.session)],
  ];
}
