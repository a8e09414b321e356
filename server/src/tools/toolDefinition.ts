/**
 * The shape every tool shares, so the MCP server, the language server and the CLI register and
 * call tools from one table (registry.ts) instead of each wiring them by hand.
 */
import type { z, ZodRawShape } from 'zod';
import type { ModelProvider } from '../library/models/modelProvider';
import type { Services } from '../services/services';

export interface ToolCallContext {
  /** Identifies the connection (MCP session, LSP client, CLI run) for per-session behaviour. */
  sessionId: string;
  /** Aborted when the caller gives up. */
  signal?: AbortSignal;
  /**
   * The connection's own model (MCP sampling, when its client offers it), which get_context's
   * model-backed steps prefer for this call over the engine's configured provider.
   */
  models?: ModelProvider;
}

export interface ToolDefinition<Shape extends ZodRawShape = ZodRawShape, OutShape extends ZodRawShape = ZodRawShape> {
  /** snake_case, as the contracts name the tools (docs/ARCHITECTURE.md). */
  name: string;
  title: string;
  /** Written for agents: when to use it, what comes back, how to follow up. */
  description: string;
  input: Shape;
  /** The structured result's schema (MCP `outputSchema`; the SDK checks every answer against it). */
  output: OutShape;
  /** Runs the tool with the host's services (the engine and the collaborators it needs). */
  run(
    services: Services,
    input: z.infer<z.ZodObject<Shape>>,
    context: ToolCallContext,
  ): Promise<z.infer<z.ZodObject<OutShape>>>;
  /**
   * The answer when the index store could not be read during the call (engine/store/
   * storeAvailability.ts): empty, with `notice` and the `scope-unreadable` flag, so an agent's
   * turn goes on (docs/ARCHITECTURE.md, workspace_context's contract: reads fail soft). Only calls on an index read from a store (`WorkspaceIndex.readsStore`) use it.
   */
  unreadable(input: z.infer<z.ZodObject<Shape>>, notice: string): z.infer<z.ZodObject<OutShape>>;
  /** A readable rendering of the result (MCP text content, CLI output). */
  renderText(output: z.infer<z.ZodObject<OutShape>>): string;
  /**
   * What MCP clients get as structured content; default the whole result. A tool whose text
   * already carries the material (get_context's bundle) sends ids, reasons and scores only, so a
   * response holds the text once.
   */
  structuredContent?(output: z.infer<z.ZodObject<OutShape>>): z.infer<z.ZodObject<OutShape>>;
}

/** Any tool, for tables that hold several. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolDefinition = ToolDefinition<any, any>;
