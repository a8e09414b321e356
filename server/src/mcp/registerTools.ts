/**
 * Registers the tool table on an MCP server, keeping the roster honest: a tool is listed only while
 * the engine can answer it (docs/ARCHITECTURE.md, workspace_context's contract, "Availability"); when that changes the SDK tells clients the
 * list changed.
 */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Services } from '../services/services';
import { canAnswer } from '../tools/availability';
import { callTool } from '../tools/callTool';
import { InputError } from '../tools/toolError';
import type { AnyToolDefinition } from '../tools/toolDefinition';
import { publishedInputSchema } from './publishedSchema';
import { samplingModelProvider } from './samplingModelProvider';

export interface RegisterOptions {
  sessionId: () => string;
  log: (message: string) => void;
}

export function registerTools(
  server: McpServer,
  services: Services,
  tools: readonly AnyToolDefinition[],
  options: RegisterOptions,
): () => void {
  const registered = new Map<string, RegisteredTool>();
  // The connected client's model, when it offers sampling (get_context's model steps use it).
  const sampling = samplingModelProvider(server.server);
  for (const tool of tools) {
    const handle = server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        // Strict: an argument the tool does not take is refused by name (JSON Schema
        // additionalProperties: false), never silently dropped; callTool does the refusing.
        inputSchema: publishedInputSchema(tool.input),
        outputSchema: tool.output,
        annotations: {
          title: tool.title,
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        },
      },
      async (args: unknown, extra: { signal: AbortSignal }) => {
        try {
          const output = await callTool(services, tool, args, {
            sessionId: options.sessionId(),
            signal: extra.signal,
            models: sampling,
          });
          return {
            content: [{ type: 'text' as const, text: tool.renderText(output) }],
            structuredContent: tool.structuredContent ? tool.structuredContent(output) : output,
          };
        } catch (error) {
          if (error instanceof InputError) return errorResult(error.message);
          options.log(`[${tool.name}] internal error: ${(error as Error).stack ?? error}`);
          return errorResult(
            `Internal error in ${tool.name}: ${(error as Error).message}. The request was not completed; try again or report it.`,
          );
        }
      },
    );
    registered.set(tool.name, handle);
  }

  const refresh = () => {
    for (const tool of tools) {
      const handle = registered.get(tool.name)!;
      const available = canAnswer(services.engine, tool.name);
      if (available && !handle.enabled) handle.enable();
      if (!available && handle.enabled) handle.disable();
    }
  };
  refresh();
  return services.engine.onDidChangeState(refresh);
}

function errorResult(message: string) {
  return { content: [{ type: 'text' as const, text: message }], isError: true };
}
