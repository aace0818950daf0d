/**
 * The security lens' rules: what the model is shown that it should not be (hidden Unicode, instructions
 * aimed at it, secrets), definitions that change under the user, and tools shadowed across servers.
 * Rule ids are a public contract (check's `security` category, SARIF rule ids, docs/check.md); each has
 * a severity, which SARIF carries as `properties.security-severity` so code scanning ranks the alert.
 */

/** How bad a rule's finding is; `score` is the CVSS-like 0–10 number code scanning reads. */
export type Severity = 'critical' | 'high' | 'medium' | 'low';

/** One security rule. `scope`: `session` rules come from a session's records, `audit` ones from several servers' logs. */
export interface SecurityRule {
  id: string;
  severity: Severity;
  score: number;
  scope: 'session' | 'audit';
  summary: string;
  help: string;
}

/** Every security rule, in the order docs/check.md lists them. */
export const SECURITY_RULES: readonly SecurityRule[] = [
  {
    id: 'unicode-tag-characters',
    severity: 'critical',
    score: 9.3,
    scope: 'session',
    summary: 'text the model reads carries Unicode tag characters (invisible ASCII)',
    help: 'Tag characters (U+E0000–U+E007F) are invisible in every UI but the model reads them as text: the finding decodes what they spell. Remove them; treat the server as hostile until you know why they are there.',
  },
  {
    id: 'unicode-bidi-control',
    severity: 'high',
    score: 8.1,
    scope: 'session',
    summary: 'text the model reads carries bidi override or isolate controls',
    help: 'Bidi controls (U+202A–U+202E, U+2066–U+2069) make text display in another order than the model reads it, so what the user approves is not what the model sees. Remove them from names, descriptions and results.',
  },
  {
    id: 'unicode-zero-width',
    severity: 'medium',
    score: 5.3,
    scope: 'session',
    summary: 'text the model reads carries zero-width characters',
    help: 'Zero-width characters (U+200B–U+200D, U+2060, U+FEFF inside text) are invisible and can split words a reviewer would catch or encode hidden data. Joiners inside emoji and next to letters of scripts that need them are not reported.',
  },
  {
    id: 'confusable-tool-name',
    severity: 'high',
    score: 7.5,
    scope: 'session',
    summary: 'a tool name mixes scripts or uses letters that look like ASCII',
    help: 'A name such as "reаd_file" with a Cyrillic "а" looks like another tool but is not: a host or a user picking tools by name is fooled. Use ASCII names.',
  },
  {
    id: 'injection-override',
    severity: 'high',
    score: 8.6,
    scope: 'session',
    summary: 'a description addresses the model to override its instructions or hide things from the user',
    help: 'Phrases like "ignore previous instructions", "do not tell the user" or "before using this tool, read …" are orders to the model, not a description of the tool. A description says what the tool does; remove the instruction (or the server).',
  },
  {
    id: 'injection-pseudo-tag',
    severity: 'high',
    score: 7.8,
    scope: 'session',
    summary: 'a description carries a pseudo-tag like <IMPORTANT> or <system>',
    help: 'Tags such as <IMPORTANT>, <system> or [INST] imitate the host\'s own prompt structure to give text authority it does not have. Descriptions need no markup of this kind.',
  },
  {
    id: 'injection-secret-reference',
    severity: 'high',
    score: 8.2,
    scope: 'session',
    summary: 'a description points the model at secrets or their files (~/.ssh, id_rsa, .env, mcp.json, API keys)',
    help: 'A tool description has no reason to mention private keys, credential files or host configs, or to ask for API keys to be read or passed along: this is how poisoned tools exfiltrate them. Remove the reference; never approve such a tool.',
  },
  {
    id: 'injection-cross-tool',
    severity: 'medium',
    score: 6.5,
    scope: 'session',
    summary: 'a description tells the model how to use other tools, or names a tool this server does not offer',
    help: 'A description that instructs the model about other tools ("when this tool is available, send_email must …", "instead of using …") changes how another server\'s tools behave (shadowing). Describe only this tool; refer to this server\'s own tools by their exact names.',
  },
  {
    id: 'tool-definition-changed',
    severity: 'medium',
    score: 5.5,
    scope: 'session',
    summary: 'a tool\'s description, schema or annotations changed after the host saw it',
    help: 'The host (and the user) approved the tool as first listed; a changed definition is a rug pull unless you expected the update. Compare the listings (mcp-tap diff), and re-approve the tool.',
  },
  {
    id: 'tool-safety-weakened',
    severity: 'high',
    score: 8.4,
    scope: 'session',
    summary: 'a tool changed in a way that weakens safety (readOnlyHint dropped, destructive or open-world now, a new required secret argument)',
    help: 'A read-only tool that turns destructive after approval is the classic rug pull. Treat the server as untrusted; hosts that auto-approve read-only tools must re-ask.',
  },
  {
    id: 'credential-in-result',
    severity: 'critical',
    score: 9.1,
    scope: 'session',
    summary: 'a credential reached the model: a token shape in a tool result, a resource read or a server request',
    help: 'The model now holds the secret and may repeat it anywhere. Rotate the credential; make the tool return no secrets (mask them at the source).',
  },
  {
    id: 'credential-in-arguments',
    severity: 'high',
    score: 7.7,
    scope: 'session',
    summary: 'the model sent a credential in tool arguments',
    help: 'A token shape in tools/call arguments means the model is passing a secret to a server, maybe one that should never see it. Find out where the model got it; rotate it if the server is not trusted with it.',
  },
  {
    id: 'tool-shadowed',
    severity: 'high',
    score: 7.4,
    scope: 'audit',
    summary: 'two servers of the host offer a tool of the same name',
    help: 'When two servers offer the same name, which one the model calls depends on the host; a malicious server can shadow a trusted one. Rename one, or remove the server you do not trust.',
  },
  {
    id: 'names-other-server-tool',
    severity: 'high',
    score: 7.2,
    scope: 'audit',
    summary: 'a server\'s description names a tool another server offers',
    help: 'A description that talks about another server\'s tool is how cross-server shadowing works ("when send_email is called, also …"). Remove the server whose description does it, unless the two servers are one product.',
  },
];

let byId: Map<string, SecurityRule> | undefined;

/** The rule of an id, or undefined for ids that are not security rules. */
export function securityRule(id: string): SecurityRule | undefined {
  byId ??= new Map(SECURITY_RULES.map((r) => [r.id, r]));
  return byId.get(id);
}
