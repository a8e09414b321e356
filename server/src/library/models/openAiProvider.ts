/**
 * A model behind any OpenAI-compatible chat completions endpoint: `POST {baseUrl}/chat/completions`
 * with `{ model, messages, max_tokens, temperature: 0 }`, answered by
 * `{ choices: [{ message: { content } }] }`. OpenAI, Ollama (`http://127.0.0.1:11434/v1`), LM Studio,
 * vLLM and llama.cpp's server all speak it.
 *
 * The judge asks for a JSON object of probabilities (prompts.ts) and, where the server supports it,
 * sets `response_format: {type: "json_object"}` so the answer is always JSON.
 */
import { ChatModelProvider, ModelError, snippet, type CompletionRequest } from './modelProvider';

export interface OpenAiModelOptions {
  /** Base URL up to (not including) `/chat/completions`, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  /**
   * Ask the server to enforce JSON answers (`response_format`). Default true; turn it off for
   * servers that refuse the field.
   */
  jsonResponseFormat?: boolean;
  /** Per-request ceiling in milliseconds, on top of each step's own timeout. Default 30,000. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

export class OpenAiModelProvider extends ChatModelProvider {
  readonly name: string;
  private readonly url: string;
  private readonly model: string;
  private readonly apiKey?: string;
  private readonly jsonResponseFormat: boolean;
  private readonly timeoutMs: number;

  constructor(options: OpenAiModelOptions) {
    super();
    const base = options.baseUrl.trim().replace(/\/+$/, '');
    if (!/^https?:\/\//i.test(base))
      throw new ModelError(`models: baseUrl must start with http:// or https:// (got '${options.baseUrl}')`);
    if (!options.model.trim()) throw new ModelError('models: a model name is required for the openai provider');
    this.url = `${base}/chat/completions`;
    this.model = options.model.trim();
    this.apiKey = options.apiKey || undefined;
    this.jsonResponseFormat = options.jsonResponseFormat ?? true;
    this.timeoutMs = Math.max(1, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.name = `openai:${this.model}`;
  }

  protected async complete(request: CompletionRequest): Promise<string> {
    const body: Record<string, unknown> = {
      model: this.model,
      messages: request.messages,
      max_tokens: request.maxTokens,
      temperature: 0,
    };
    if (request.json && this.jsonResponseFormat) body.response_format = { type: 'json_object' };
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    const signals = [AbortSignal.timeout(this.timeoutMs), ...(request.signal ? [request.signal] : [])];
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.any(signals),
      });
    } catch (error) {
      throw new ModelError(`${this.name}: request to ${this.url} failed: ${(error as Error).message}`);
    }
    const text = await response.text();
    if (!response.ok) throw new ModelError(`${this.name}: ${this.url} answered ${response.status}: ${snippet(text)}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ModelError(`${this.name}: ${this.url} answered with something that is not JSON: ${snippet(text)}`);
    }
    const content = (parsed as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
    if (typeof content !== 'string')
      throw new ModelError(`${this.name}: the answer has no choices[0].message.content: ${snippet(text)}`);
    return content;
  }
}
