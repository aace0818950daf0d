/**
 * Where mcp-tap keeps its logs when neither --log nor MCP_TAP_LOG says otherwise, as a pure function of
 * (platform, env, home). The proxy writes there and every reader (tail, ls, check, replay, demo) looks
 * there, so both sides must call this one function.
 */
import { posix, win32 } from 'node:path';

/** $XDG_STATE_HOME/mcp-tap when set (any OS); else the platform's place for application logs. */
export function logDirFor(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  const p = platform === 'win32' ? win32 : posix;
  const xdg = env.XDG_STATE_HOME;
  if (xdg && p.isAbsolute(xdg)) return p.join(xdg, 'mcp-tap');
  switch (platform) {
    case 'darwin':
      // beside the hosts' own MCP logs, where Console.app shows them
      return p.join(home, 'Library', 'Logs', 'mcp-tap');
    case 'win32': {
      const local = env.LOCALAPPDATA && p.isAbsolute(env.LOCALAPPDATA) ? env.LOCALAPPDATA : p.join(home, 'AppData', 'Local');
      return p.join(local, 'mcp-tap', 'Logs');
    }
    default:
      return p.join(home, '.local', 'state', 'mcp-tap');
  }
}
