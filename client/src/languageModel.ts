/**
 * Answers the language server's LanguageModelRequest with the user's chat model (VS Code's
 * `vscode.lm`), so get_context's planner and judge can use whatever model the user has (Copilot or
 * any other provider) without a key of ours. Fails with a clear message when no model is
 * available or the user declined; the server then uses its heuristics for that step.
 */
import {
  CancellationError,
  LanguageModelChatMessage,
  lm,
  type CancellationToken,
  type LanguageModelChat,
} from 'vscode';
import type { LanguageModelParams, LanguageModelResult } from '../../shared/protocol';

/** Families tried first: small, fast models suit the planner and the judge. */
const PREFERRED_FAMILIES = ['gpt-4o-mini', 'gpt-4.1-mini', 'claude-3.5-haiku', 'gemini-2.0-flash'];

export async function answerLanguageModelRequest(
  params: LanguageModelParams,
  token: CancellationToken,
): Promise<LanguageModelResult> {
  const model = await pickModel();
  if (!model) throw new Error('No language model is available in this editor; get_context uses its heuristics.');
  const system = params.messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  const turns = params.messages.filter((m) => m.role !== 'system');
  // The chat API has no system role: the system text leads the first user turn.
  const messages = turns.map((m, i) =>
    m.role === 'assistant'
      ? LanguageModelChatMessage.Assistant(m.content)
      : LanguageModelChatMessage.User(i === 0 && system ? `${system}\n\n${m.content}` : m.content),
  );
  if (messages.length === 0) messages.push(LanguageModelChatMessage.User(system));
  try {
    const response = await model.sendRequest(
      messages,
      {
        justification:
          'Workspace Context asks a small model to plan and judge which of your library pages a task needs.',
      },
      token,
    );
    let text = '';
    for await (const part of response.text) text += part;
    return { text, model: `${model.vendor}/${model.family}` };
  } catch (error) {
    if (error instanceof CancellationError) throw error;
    throw new Error(`The language model ${model.vendor}/${model.family} did not answer: ${(error as Error).message}`);
  }
}

async function pickModel(): Promise<LanguageModelChat | undefined> {
  for (const family of PREFERRED_FAMILIES) {
    const [model] = await lm.selectChatModels({ family });
    if (model) return model;
  }
  const [any] = await lm.selectChatModels();
  return any;
}
