/**
 * Calling a tool the same way from every host: validate the input with the tool's own schema,
 * run it, and sort failures into the caller's mistakes (`ToolInputError`) and ours.
 */
import { z } from 'zod';
import type { Services } from '../services/services';
import { describeZodError, toolErrorMap, ToolInputError } from './toolError';
import type { AnyToolDefinition, ToolCallContext } from './toolDefinition';
import { isStoreUnavailable, unreadableNotice } from '../engine';
import { checkOutput, validatesOutput } from './outputContract';

/**
 * Each tool's strict input schema and error map, built on its first call: zod compiles a fast
 * path per schema object on first parse, so a schema built per call paid that compile every time
 * (~0.25 ms of a ~3 ms workspace_context call at 100k sections).
 */
const inputParsers = new WeakMap<AnyToolDefinition, { schema: z.ZodObject; error: ReturnType<typeof toolErrorMap> }>();

function inputParser(tool: AnyToolDefinition): { schema: z.ZodObject; error: ReturnType<typeof toolErrorMap> } {
  let parser = inputParsers.get(tool);
  if (!parser) {
    parser = { schema: z.object(tool.input).strict(), error: toolErrorMap(tool.name, tool.input) };
    inputParsers.set(tool, parser);
  }
  return parser;
}

export async function callTool(
  services: Services,
  tool: AnyToolDefinition,
  rawInput: unknown,
  context: ToolCallContext,
): Promise<Record<string, unknown>> {
  const { schema, error: errorMap } = inputParser(tool);
  const parsed = schema.safeParse(rawInput ?? {}, { error: errorMap });
  if (!parsed.success) {
    const error = new ToolInputError(`Invalid input for ${tool.name}: ${describeZodError(parsed.error)}`);
    // Refused before the tool runs, so logged here: the call log covers every call.
    const input = rawInput !== null && typeof rawInput === 'object' ? (rawInput as Record<string, unknown>) : {};
    services.activity?.append({
      tool: tool.name,
      session: context.sessionId,
      input,
      latencyMs: 0,
      resultIds: [],
      empty: true,
      error: error.message,
    });
    throw error;
  }
  // Asked while the state in service is the restored snapshot (its first pass has not ended): the
  // answer may come from it, so it says so, whichever state the tool reads by the time it answers.
  const stale = services.engine.status().fromSnapshot;
  let output: Record<string, unknown>;
  try {
    output = (await tool.run(services, parsed.data, context)) as Record<string, unknown>;
  } catch (error) {
    // Reads fail soft (docs/ARCHITECTURE.md, workspace_context's contract): a store that cannot be reached gives an empty, flagged answer.
    // A refusal (a bad argument, a workspace this connection may not read) is never one of these.
    if (!services.engine.readsStore || !isStoreUnavailable(error)) throw error;
    output = tool.unreadable(parsed.data, unreadableNotice(error)) as Record<string, unknown>;
  }
  // Every answer says when a served folder is gone and it comes from that folder's last index,
  // and when it comes from a snapshot not yet checked against the workspace.
  const degraded = output.degraded;
  if (Array.isArray(degraded)) {
    if (!degraded.includes('workspace-missing') && services.engine.status().missingFolders.length > 0)
      degraded.push('workspace-missing');
    if (stale && !degraded.includes('index-stale') && !degraded.includes('index-cold')) degraded.push('index-stale');
  }
  // Tests and development builds check the answer as strict clients will, and fail loudly here
  // rather than in an agent's client (outputContract.ts): the whole answer (the CLI's --json, the
  // REST API's JSON) and what MCP sends as structured content.
  if (validatesOutput()) {
    checkOutput(tool, output);
    if (tool.structuredContent) checkOutput(tool, tool.structuredContent(output));
  }
  return output;
}
