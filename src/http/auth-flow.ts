/**
 * The OAuth sign-in a host goes through when an MCP server wants a token, as one chain (pure): the
 * 401/403 challenge, the protected-resource and authorization-server metadata, registration,
 * authorization and token requests that pass through the tap, and the retried MCP request that ends it.
 * Only methods, paths, statuses and the grant type are kept: never a token, a code or a body.
 */
import type { AuthLink } from '../log/auth-chain.js';

/** Paths of the authorization server's endpoints, from its metadata when it passed through. */
export interface AsEndpoints {
  token?: string;
  register?: string;
  authorize?: string;
}

/** The auth step an exchange outside the MCP endpoint is, or null. */
export function authStepOf(method: string, path: string, as: AsEndpoints): AuthLink['step'] | null {
  if (path.startsWith('/.well-known/oauth-protected-resource')) return 'resource-metadata';
  if (path.startsWith('/.well-known/oauth-authorization-server') || path.endsWith('/.well-known/openid-configuration') || path.startsWith('/.well-known/openid-configuration')) {
    return 'as-metadata';
  }
  if (method === 'POST' && (path === as.token || (as.token === undefined && /\/token$/.test(path)))) return 'token';
  if (method === 'POST' && (path === as.register || (as.register === undefined && /\/register$/.test(path)))) return 'register';
  if (method === 'GET' && (path === as.authorize || (as.authorize === undefined && /\/authori[sz]e$/.test(path)))) return 'authorize';
  return null;
}

/** The endpoint paths an authorization server's metadata names on `origin` (others never pass through the tap). */
export function asEndpointsOf(metadata: unknown, origin: string): AsEndpoints {
  const out: AsEndpoints = {};
  if (typeof metadata !== 'object' || metadata === null) return out;
  const m = metadata as Record<string, unknown>;
  const pathOf = (v: unknown): string | undefined => {
    if (typeof v !== 'string') return undefined;
    try {
      const u = new URL(v);
      return u.origin === origin ? u.pathname : undefined;
    } catch {
      return undefined;
    }
  };
  const token = pathOf(m['token_endpoint']);
  const register = pathOf(m['registration_endpoint']);
  const authorize = pathOf(m['authorization_endpoint']);
  if (token !== undefined) out.token = token;
  if (register !== undefined) out.register = register;
  if (authorize !== undefined) out.authorize = authorize;
  return out;
}

/** The `grant_type` of a token request's form body, when it is a plain word; nothing else is read. */
export function grantTypeOf(form: string): string | undefined {
  for (const part of form.split('&')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq) === 'grant_type') {
      const v = decodeURIComponent(part.slice(eq + 1).replace(/\+/g, ' '));
      return /^[A-Za-z0-9:._-]{1,100}$/.test(v) ? v : undefined;
    }
  }
  return undefined;
}

/** A finished chain: the `auth` event's fields. */
export interface AuthChain {
  chain: AuthLink[];
  ok: boolean;
  /** From the first step to the last (not `ms`: readers show that as an answer's latency). */
  durationMs: number;
  omitted?: number;
}

/** Steps kept per chain; the rest are counted. */
const MAX_LINKS = 32;

interface Open {
  start: number;
  links: AuthLink[];
  omitted: number;
}

/** One run's sign-in flows: at most one open at a time (a host signs in once, then retries). */
export class AuthFlows {
  private open: Open | null = null;

  /** An MCP request answered 401/403 with a challenge: a chain starts (or a repeated challenge joins it). */
  challenge(at: number, status: number, path: string, error?: string): void {
    const link: AuthLink = { step: 'challenge', status, path, ms: 0 };
    if (error !== undefined) link.error = error;
    this.add(at, link);
  }

  /** An auth exchange passed (metadata, registration, authorization, token). */
  step(at: number, step: AuthLink['step'], status: number, path: string, grant?: string): void {
    const link: AuthLink = { step, status, path, ms: 0 };
    if (grant !== undefined) link.grant = grant;
    this.add(at, link);
  }

  /**
   * An MCP request that carried credentials was answered: a chain in progress ends with it (OK for a
   * 2xx, failed otherwise). Null when no chain was open or the request carried none.
   */
  answered(at: number, status: number, path: string, withCredentials: boolean): AuthChain | null {
    const o = this.open;
    if (o === null || !withCredentials) return null;
    // a chain that has not yet fetched anything is still at its challenge: the host has not retried yet
    if (!o.links.some((l) => l.step !== 'challenge') && status === 401) return null;
    // the retry always ends the chain it closes, however many steps were counted instead of kept
    o.links.push({ step: 'retry', status, path, ms: Math.round((at - o.start) * 1000) / 1000 });
    this.open = null;
    return this.close(o, at, status >= 200 && status < 300);
  }

  /**
   * The chain still open (at shutdown): ended, not OK. Metadata fetched without any challenge (a host
   * discovering ahead, a crawler) is no sign-in that failed: nothing.
   */
  takeOpen(at: number): AuthChain | null {
    const o = this.open;
    this.open = null;
    if (o === null || !o.links.some((l) => l.step === 'challenge' || l.step === 'token')) return null;
    return this.close(o, at, false);
  }

  private add(at: number, link: AuthLink): void {
    if (this.open === null) this.open = { start: at, links: [], omitted: 0 };
    const o = this.open;
    link.ms = Math.round((at - o.start) * 1000) / 1000;
    if (o.links.length < MAX_LINKS) o.links.push(link);
    else o.omitted++;
  }

  private close(o: Open, at: number, ok: boolean): AuthChain {
    const out: AuthChain = { chain: o.links, ok, durationMs: Math.round((at - o.start) * 1000) / 1000 };
    if (o.omitted > 0) out.omitted = o.omitted;
    return out;
  }
}
