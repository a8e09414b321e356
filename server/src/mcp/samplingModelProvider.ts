/**
 * The model provider of an MCP connection whose client offers sampling: completions go to the
 * client as `sampling/createMessage` requests (the SDK's `server.createMessage`), so the client's
 * own model and the user's consent decide. Without the `sampling` capability the provider says it
 * is unavailable and every step uses its heuristic.
 *
 *   const models = samplingModelProvider(created.server.server); // passed per call as ToolCallContext.models
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { DelegatingModelProvider } from '../library/models/delegatingProvider';
import { ModelError, type CompletionRequest } from '../library/models/modelProvider';

export const SAMPLING_PROVIDER_NAME = 'mcp-sampling';

/** Model preferences sent with each request: a small, fast model (the judge and planner's kind). */
const PREFERENCES = { speedPriority: 0.9, costPriority: 0.8, intelligencePriority: 0.3 };

export function samplingModelProvider(server: Server): DelegatingModelProvider {
  return new DelegatingModelProvider(
    SAMPLING_PROVIDER_NAME,
    (request) => createMessage(server, request),
    () => server.getClientCapabilities()?.sampling !== undefined,
  );
}

async function createMessage(server: Server, request: CompletionRequest): Promise<string> {
  const system = request.messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  const messages = request.messages
    .filter((m) => m.role !== 'system')
    .map((m) => ({ role: m.role as 'user' | 'assistant', content: { type: 'text' as const, text: m.content } }));
  const result = await server.createMessage(
    {
      messages,
      ...(system ? { systemPrompt: system } : {}),
      maxTokens: request.maxTokens,
      temperature: 0,
      modelPreferences: PREFERENCES,
      includeContext: 'none',
    },
    { signal: request.signal },
  );
  const content = result.content as { type: string; text?: string } | { type: string; text?: string }[];
  const first = Array.isArray(content) ? content.find((c) => c.type === 'text') : content;
  if (first?.type !== 'text' || typeof first.text !== 'string')
    throw new ModelError(`${SAMPLING_PROVIDER_NAME}: the client answered without text`);
  return first.text;
}
