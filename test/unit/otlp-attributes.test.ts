/**
 * The attribute names mcp-tap puts on spans are the OpenTelemetry semantic conventions' own, as
 * @opentelemetry/semantic-conventions exports them, and docs/observability.md lists every one of them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ATTR } from '../../src/otlp/spans.js';
import { ROOT } from '../helpers/paths.js';
import { toolRequire, withTestTools } from '../helpers/test-tools.js';

// the conventions come from the test tools (.cache/test-tools), installed when missing
const TOOLS = await withTestTools('otlp-attributes.test.ts');
const semconv = (TOOLS ? toolRequire('@opentelemetry/semantic-conventions/incubating') : {}) as Record<string, string>;

const CONSTANT: Record<keyof typeof ATTR, string> = {
  mcpMethodName: 'ATTR_MCP_METHOD_NAME',
  mcpProtocolVersion: 'ATTR_MCP_PROTOCOL_VERSION',
  mcpResourceUri: 'ATTR_MCP_RESOURCE_URI',
  mcpSessionId: 'ATTR_MCP_SESSION_ID',
  jsonrpcRequestId: 'ATTR_JSONRPC_REQUEST_ID',
  genAiToolName: 'ATTR_GEN_AI_TOOL_NAME',
  genAiPromptName: 'ATTR_GEN_AI_PROMPT_NAME',
  genAiOperationName: 'ATTR_GEN_AI_OPERATION_NAME',
  genAiToolCallArguments: 'ATTR_GEN_AI_TOOL_CALL_ARGUMENTS',
  genAiToolCallResult: 'ATTR_GEN_AI_TOOL_CALL_RESULT',
  networkTransport: 'ATTR_NETWORK_TRANSPORT',
  rpcResponseStatusCode: 'ATTR_RPC_RESPONSE_STATUS_CODE',
  errorType: 'ATTR_ERROR_TYPE',
  processCommand: 'ATTR_PROCESS_COMMAND',
  processCommandArgs: 'ATTR_PROCESS_COMMAND_ARGS',
  processExitCode: 'ATTR_PROCESS_EXIT_CODE',
};

describe('span attribute names', () => {
  it.runIf(TOOLS)('are the semantic conventions constants', () => {
    for (const [key, constant] of Object.entries(CONSTANT)) expect([key, ATTR[key as keyof typeof ATTR]]).toEqual([key, semconv[constant]]);
    expect(Object.keys(CONSTANT).sort()).toEqual(Object.keys(ATTR).sort());
  });

  it.runIf(TOOLS)('use the conventions values for execute_tool and pipe', () => {
    expect(semconv['GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL']).toBe('execute_tool');
    expect(semconv['NETWORK_TRANSPORT_VALUE_PIPE']).toBe('pipe');
  });

  it('are each described in docs/observability.md', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'observability.md'), 'utf8');
    for (const name of Object.values(ATTR)) expect(doc, name).toContain(`\`${name}\``);
  });
});
