/**
 * The variables hosts substitute in a server entry before starting it, so doctor checks what the host
 * would really run: VS Code and Cursor `${workspaceFolder}`, `${userHome}`, `${env:NAME}`; Claude Code
 * `${NAME}` and `${NAME:-default}`; Gemini CLI also `$NAME`; Qwen Code `$NAME` and `${NAME}` (no
 * default: `${A:-b}` stays as written, as its resolveEnvVarsInString leaves it); opencode and Kilo CLI
 * `{env:NAME}`, empty when unset. `${input:…}` (asked for by VS Code at start) cannot be known here.
 */
import type { HostId } from './types.js';

export interface Expansion {
  value: string;
  /** Variables left as they were because their value cannot be known outside the host. */
  unresolved: string[];
}

export interface ExpandContext {
  host: HostId | 'custom';
  project: string;
  home: string;
  env: Record<string, string | undefined>;
  pathSeparator: string;
}

/** One string with the host's variables replaced. */
export function expandVariables(text: string, ctx: ExpandContext): Expansion {
  const unresolved: string[] = [];
  let value = text;
  if (ctx.host === 'vscode' || ctx.host === 'vscode-insiders' || ctx.host === 'cursor') {
    value = text.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
      if (name === 'workspaceFolder' || name === 'workspaceRoot') return ctx.project;
      if (name === 'userHome') return ctx.home;
      if (name === 'pathSeparator' || name === '/') return ctx.pathSeparator;
      if (name.startsWith('env:')) return ctx.env[name.slice(4)] ?? '';
      unresolved.push(whole);
      return whole;
    });
  } else if (ctx.host === 'claude-code') {
    value = text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (whole, name: string, fallback: string | undefined) => {
      const v = ctx.env[name];
      if (v !== undefined) return v;
      if (fallback !== undefined) return fallback;
      unresolved.push(whole);
      return whole;
    });
  } else if (ctx.host === 'gemini') {
    // Gemini CLI's resolveEnvVarsInString: $NAME, ${NAME}, ${NAME:-default}; unknown names stay as written.
    value = text.replace(/\$(?:(\w+)|\{([^}]+?)(?::-([^}]*))?\})/g, (whole, bare: string | undefined, braced: string | undefined, fallback: string | undefined) => {
      const v = ctx.env[(bare ?? braced)!];
      if (v !== undefined) return v;
      if (fallback !== undefined) return fallback;
      unresolved.push(whole);
      return whole;
    });
  } else if (ctx.host === 'qwen') {
    value = text.replace(/\$(?:(\w+)|\{([^}]+)\})/g, (whole, bare: string | undefined, braced: string | undefined) => {
      const v = ctx.env[(bare ?? braced)!];
      if (v !== undefined) return v;
      unresolved.push(whole);
      return whole;
    });
  } else if (ctx.host === 'opencode' || ctx.host === 'kilo') {
    value = text.replace(/\{env:([^}]+)\}/g, (_whole, name: string) => ctx.env[name.trim()] ?? '');
  }
  return { value, unresolved };
}
