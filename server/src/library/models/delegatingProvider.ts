/**
 * A provider whose completions a host performs: the language server forwards them to VS Code's
 * language model API through the client, the MCP server to the connected client's sampling
 * (mcp/samplingModelProvider.ts). The engine only sees this class, never the host's API.
 *
 *   const provider = new DelegatingModelProvider('vscode:copilot-gpt-4o', (request) =>
 *     connection.sendRequest(ModelRequest.type, request));
 */
import { ChatModelProvider, type CompletionRequest } from './modelProvider';

/** Performs one chat completion: resolves with the answer's text, rejects on failure. */
export type CompletionFunction = (request: CompletionRequest) => Promise<string>;

export class DelegatingModelProvider extends ChatModelProvider {
  /**
   * @param name Shown in the activity log (`vscode:<model>`, `mcp-sampling`).
   * @param send Performs a completion; it receives the caller's abort signal.
   * @param isAvailable Whether the host can answer now (an MCP client without sampling cannot).
   *   Default: always.
   */
  constructor(
    readonly name: string,
    private readonly send: CompletionFunction,
    private readonly isAvailable: () => boolean = () => true,
  ) {
    super();
  }

  override available(): boolean {
    return super.available() && this.isAvailable();
  }

  protected complete(request: CompletionRequest): Promise<string> {
    return this.send(request);
  }
}
