/**
 * The call log's entry for one tool call, whatever the tool: its input, latency, the ids it
 * returned and whether it came back empty (`wsctx diagnostics` reads them). Logged only when the
 * host's services hold an activity log (services/services.ts).
 */
import type { Services } from '../services/services';
import type { ToolCallContext } from './toolDefinition';

/**
 * Runs a tool call and logs it (tool, input, latency, returned ids, empty or not) when the host
 * has an activity log. Refused and failed calls are logged with their message.
 */
export async function logged<T>(
  services: Pick<Services, 'activity'>,
  context: ToolCallContext,
  tool: string,
  input: Record<string, unknown>,
  run: () => Promise<T>,
  outcome: (output: T) => { resultIds: string[]; empty: boolean },
): Promise<T> {
  const log = services.activity;
  const started = performance.now();
  try {
    const output = await run();
    if (log) log.append({ tool, session: context.sessionId, input, latencyMs: elapsed(started), ...outcome(output) });
    return output;
  } catch (error) {
    if (log)
      log.append({
        tool,
        session: context.sessionId,
        input,
        latencyMs: elapsed(started),
        resultIds: [],
        empty: true,
        error: (error as Error).message,
      });
    throw error;
  }
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}
