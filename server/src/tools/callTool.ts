/**
 * Calling a tool the same way from every host: validate the input with the tool's own schema,
 * run it, and sort failures into the caller's mistakes (`ToolInputError`) and ours.
 */
import { z } from 'zod';
import type { Services } from '../services/services';
import { describeZodError, toolErrorMap, ToolInputError } from './toolError';
import type { AnyToolDefinition, ToolCallContext } from './toolDefinition';

export async function callTool(services: Services, tool: AnyToolDefinition, rawInput: unknown, context: ToolCallContext): Promise<Record<string, unknown>> {
  const parsed = z.object(tool.input).strict().safeParse(rawInput ?? {}, { error: toolErrorMap(tool.name, tool.input) });
  if (!parsed.success) {
    const error = new ToolInputError(`Invalid input for ${tool.name}: ${describeZodError(parsed.error)}`);
    // Refused before the tool runs, so logged here: the call log covers every call.
    const input = rawInput !== null && typeof rawInput === 'object' ? (rawInput as Record<string, unknown>) : {};
    services.activity?.append({ tool: tool.name, session: context.sessionId, input, latencyMs: 0, resultIds: [], empty: true, error: error.message });
    throw error;
  }
  const output = (await tool.run(services, parsed.data, context)) as Record<string, unknown>;
  // Every answer says when a served folder is gone and it comes from that folder's last index.
  const degraded = output.degraded;
  if (Array.isArray(degraded) && !degraded.includes('workspace-missing') && services.engine.status().missingFolders.length > 0) degraded.push('workspace-missing');
  return output;
}
