/**
 * The one interface every model-backed step goes through (docs/ARCHITECTURE.md, "Model steps are optional"): Herald's planner,
 * judge, Good-for phrasings, section questions and conflict check.
 *
 * Providers: an OpenAI-compatible endpoint (openAiProvider.ts), a host-supplied function
 * (delegatingProvider.ts: VS Code's language model API through the client, MCP sampling), and
 * `none`. Every step has a deterministic fallback, so `none` is a complete configuration, and a
 * provider that is slow or fails costs one request its model answers, never the answer.
 *
 * Two capabilities, both built on one chat completion:
 * - `judge`: yes/no questions answered with a probability, every question of a request in ONE call;
 * - `generate`: a short text (a JSON plan, a few phrasings).
 */
import { judgePrompt, parseJudgeAnswers, type JudgeItem } from './prompts';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompletionRequest {
  messages: ChatMessage[];
  /** Most tokens the answer may take. */
  maxTokens: number;
  /** True when the prompt asks for a JSON object (providers that can enforce it do). */
  json?: boolean;
  signal?: AbortSignal;
}

export interface JudgeRequest {
  task: string;
  items: readonly JudgeItem[];
}

/** One question's answer: `probability` is the probability that the answer is yes (0..1). */
export interface JudgeAnswer {
  id: string;
  yes: boolean;
  probability: number;
}

export interface GenerateRequest {
  system: string;
  prompt: string;
  /** Default 400. */
  maxTokens?: number;
  json?: boolean;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Gives up after this long (the step falls back to its heuristic). */
  timeoutMs?: number;
}

export interface ModelProvider {
  /** Names the provider in the activity log: `none`, `openai:<model>`, `vscode:<model>`, `mcp-sampling`. */
  readonly name: string;
  /** False when nothing can answer (`none`, an MCP client without sampling). */
  available(): boolean;
  /** Answers every item in one call. Rejects on failure; answers may omit items the model skipped. */
  judge(request: JudgeRequest, options?: CallOptions): Promise<JudgeAnswer[]>;
  /** A short text answer. Rejects on failure. */
  generate(request: GenerateRequest, options?: CallOptions): Promise<string>;
  /** Gives up every call in flight and refuses later ones (ChatModelProvider.abandon); optional. */
  abandon?(): void;
}

/** A provider failed or gave an answer we could not read. */
export class ModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelError';
  }
}

/** Tokens a judge answer may take per question (`{"q12": 0.93}` is about 6). */
const JUDGE_TOKENS_PER_ITEM = 12;

/**
 * A provider built on one chat completion primitive: `judge` and `generate` are prompts
 * (prompts.ts) sent through {@link complete}. Subclasses implement only the transport.
 */
export abstract class ChatModelProvider implements ModelProvider {
  abstract readonly name: string;
  /** Each call in flight: {@link abandon} aborts them all. */
  private readonly inFlight = new Set<AbortController>();
  private abandoned = false;

  available(): boolean {
    return !this.abandoned;
  }

  /**
   * Gives up every call in flight (their requests are aborted; they reject with a ModelError) and
   * refuses every later one. A one-shot command calls it once its answer is made, so a slow model
   * cannot keep the process alive for answers nobody will read.
   */
  abandon(): void {
    this.abandoned = true;
    for (const controller of this.inFlight) controller.abort();
  }

  /** Runs one call with the caller's options, ended by the caller's signal, its timeout or {@link abandon}. */
  private async abandonable<T>(run: (signal: AbortSignal) => Promise<T>, options: CallOptions): Promise<T> {
    if (this.abandoned) throw new ModelError(`${this.name}: abandoned (the answer was already made)`);
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    if (options.signal?.aborted) controller.abort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    this.inFlight.add(controller);
    try {
      return await withTimeout(run, { ...options, signal: controller.signal });
    } finally {
      this.inFlight.delete(controller);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Sends one chat completion and resolves with the answer's text. */
  protected abstract complete(request: CompletionRequest): Promise<string>;

  async judge(request: JudgeRequest, options: CallOptions = {}): Promise<JudgeAnswer[]> {
    if (request.items.length === 0) return [];
    const prompt = judgePrompt(request.task, request.items);
    const text = await this.abandonable(
      (signal) =>
        this.complete({
          messages: prompt,
          maxTokens: 40 + JUDGE_TOKENS_PER_ITEM * request.items.length,
          json: true,
          signal,
        }),
      options,
    );
    const answers = parseJudgeAnswers(
      text,
      request.items.map((i) => i.id),
    );
    if (answers === null)
      throw new ModelError(`${this.name}: the judge's answer is not the JSON asked for: ${snippet(text)}`);
    return answers;
  }

  async generate(request: GenerateRequest, options: CallOptions = {}): Promise<string> {
    const messages: ChatMessage[] = [
      { role: 'system', content: request.system },
      { role: 'user', content: request.prompt },
    ];
    return this.abandonable(
      (signal) => this.complete({ messages, maxTokens: request.maxTokens ?? 400, json: request.json, signal }),
      options,
    );
  }
}

/** The provider of a configuration without a model: every step uses its heuristic. */
export class NoneModelProvider implements ModelProvider {
  readonly name = 'none';
  available(): boolean {
    return false;
  }
  async judge(): Promise<JudgeAnswer[]> {
    throw new ModelError('no model provider is configured');
  }
  async generate(): Promise<string> {
    throw new ModelError('no model provider is configured');
  }
}

export const NO_MODEL: ModelProvider = new NoneModelProvider();

/**
 * Runs `run` with an abort signal that fires on the caller's signal or after `timeoutMs`,
 * rejecting with a {@link ModelError} saying which.
 */
export async function withTimeout<T>(run: (signal: AbortSignal) => Promise<T>, options: CallOptions = {}): Promise<T> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const limits: Promise<never>[] = [];
  if (options.timeoutMs !== undefined && options.timeoutMs > 0) {
    limits.push(
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new ModelError(`no answer within ${options.timeoutMs} ms`));
        }, options.timeoutMs);
        timer.unref?.();
      }),
    );
  }
  if (options.signal) {
    limits.push(
      new Promise<never>((_, reject) => {
        if (options.signal!.aborted) reject(new ModelError('cancelled'));
        options.signal!.addEventListener('abort', () => reject(new ModelError('cancelled')), { once: true });
      }),
    );
  }
  try {
    return await Promise.race([run(controller.signal), ...limits]);
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

export function snippet(text: string, max = 200): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max)}…` : one;
}
