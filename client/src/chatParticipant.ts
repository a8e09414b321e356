/**
 * The `@context` chat participant. A question is answered by the chat model the user picked, from
 * the best `workspace_context` passages and the rules `get_context` says apply (when the server
 * serves it), with every passage streamed as a reference and the ones the answer cites as anchors.
 * `/why <question>`, `/expand <ref>`, `/toc [query]` and `/change [task]` (the context for the
 * change in the working tree) answer from the index alone, with no model, so they work when no
 * chat model is available.
 */
import {
  chat,
  LanguageModelChatMessage,
  Location,
  MarkdownString,
  Range,
  Uri,
  workspace,
  type CancellationToken,
  type ChatFollowup,
  type ChatRequest,
  type ChatResponseStream,
  type ChatResult,
  type Disposable,
  type ExtensionContext,
} from 'vscode';
import { ResponseError } from 'vscode-languageclient/node';
import {
  CallToolRequest,
  ChangeContextRequest,
  ClientCommands,
  SearchRequest,
  type CallToolResult,
  type ChangeContextResult,
} from '../../shared/protocol';
import { changeChatMarkdown } from './changeText';
import {
  buildPrompt,
  CHAT_MODEL_PASSAGES,
  CHAT_WHY_PASSAGES,
  citedSources,
  expandTargets,
  parseExpandPrompt,
  placeOf,
  renderExpand,
  sourcesFromOutput,
  whyBlocks,
  whyHeader,
  type ChatSource,
} from './chatText';
import { CHAT_PARTICIPANT } from './contributions';
import type { ServerConnection } from './languageClient';
import type { ExpandView } from './pickItems';

/** JSON-RPC InvalidParams: the server's answer to a tool it does not serve or input it refuses. */
const INVALID_PARAMS = -32602;

interface ContextMetadata {
  command: 'ask' | 'why' | 'expand' | 'toc' | 'change';
  /** The tools the answer came from. */
  tools?: string[];
  sources?: number;
  cited?: number[];
  followups?: ChatFollowup[];
}

export function registerChatParticipant(context: ExtensionContext, connection: ServerConnection): Disposable {
  const participant = chat.createChatParticipant(CHAT_PARTICIPANT.id, (request, _history, stream, token) =>
    handle(connection, request, stream, token),
  );
  participant.iconPath = Uri.joinPath(context.extensionUri, 'media', 'icon.png');
  participant.followupProvider = {
    provideFollowups: (result: ChatResult) => (result.metadata as ContextMetadata | undefined)?.followups ?? [],
  };
  return participant;
}

async function handle(
  connection: ServerConnection,
  request: ChatRequest,
  stream: ChatResponseStream,
  token: CancellationToken,
): Promise<ChatResult> {
  if (connection.state !== 'running') {
    stream.markdown(
      'The Workspace Context language server is not running, so there is no index to answer from. Check the Workspace Context status item.',
    );
    return { metadata: { command: 'ask' } };
  }
  const prompt = request.prompt.trim();
  try {
    switch (request.command) {
      case 'why':
        return await why(connection, prompt, stream, token);
      case 'expand':
        return await expand(connection, prompt, stream);
      case 'toc':
        return await toc(connection, prompt, stream);
      case 'change':
        return await change(connection, prompt, stream, token);
      default:
        return await ask(connection, request, prompt, stream, token);
    }
  } catch (error) {
    connection.output.error(`[chat] ${(error as Error).stack ?? error}`);
    return { errorDetails: { message: (error as Error).message } };
  }
}

async function why(
  connection: ServerConnection,
  question: string,
  stream: ChatResponseStream,
  token: CancellationToken,
): Promise<ChatResult> {
  if (!question) {
    stream.markdown(
      'Ask a question after `/why`, e.g. `/why how do I roll back billing-worker?`: you get the ranked passages and how each score was made.',
    );
    return { metadata: { command: 'why', sources: 0 } satisfies ContextMetadata };
  }
  stream.progress('Ranking passages…');
  const result = await connection.client.sendRequest(SearchRequest.type, { question, limit: CHAT_WHY_PASSAGES }, token);
  stream.markdown(`${whyHeader(result)}\n\n`);
  for (const block of whyBlocks(result)) {
    stream.markdown(block.heading);
    stream.anchor(location(block.source), placeOf(block.source));
    stream.markdown(`\n\n${block.table}\n`);
    stream.reference(location(block.source));
  }
  return {
    metadata: {
      command: 'why',
      tools: ['workspace_context'],
      sources: result.passages.length,
    } satisfies ContextMetadata,
  };
}

async function expand(connection: ServerConnection, prompt: string, stream: ChatResponseStream): Promise<ChatResult> {
  const parsed = parseExpandPrompt(prompt);
  if (!parsed.ok) {
    stream.markdown(parsed.error);
    return { metadata: { command: 'expand' } satisfies ContextMetadata };
  }
  const { output } = await callTool<ExpandView>(connection, 'workspace_expand', { ...parsed.args });
  const text = new MarkdownString(renderExpand(output));
  // The walk's links run the expand command, and nothing else.
  text.isTrusted = { enabledCommands: [ClientCommands.expandEntity] };
  stream.markdown(text);
  const followups = expandTargets(output)
    .slice(0, 3)
    .map((ref): ChatFollowup => ({ prompt: ref, command: 'expand', label: `Expand ${ref}` }));
  return { metadata: { command: 'expand', followups } satisfies ContextMetadata };
}

/** `/change [task]`: the bundle for the change in the working tree, item by item with its reason, and the bundle to open. */
async function change(
  connection: ServerConnection,
  task: string,
  stream: ChatResponseStream,
  token: CancellationToken,
): Promise<ChatResult> {
  stream.progress('Reading the change…');
  let result: ChangeContextResult;
  try {
    result = await connection.client.sendRequest(
      ChangeContextRequest.type,
      { which: 'workingTree', ...(task ? { task } : {}) },
      token,
    );
  } catch (error) {
    // No change, or no repository: the server's reason is the answer.
    if (error instanceof ResponseError && error.code === INVALID_PARAMS) {
      stream.markdown(error.message);
      return { metadata: { command: 'change' } satisfies ContextMetadata };
    }
    throw error;
  }
  stream.markdown(changeChatMarkdown(result));
  stream.button({ command: 'vscode.open', arguments: [Uri.parse(result.uri)], title: 'Open the bundle' });
  return {
    metadata: { command: 'change', tools: ['get_context'], sources: result.items.length } satisfies ContextMetadata,
  };
}

async function toc(connection: ServerConnection, query: string, stream: ChatResponseStream): Promise<ChatResult> {
  const result = await callTool(connection, 'get_toc', query ? { query } : {});
  stream.markdown(result.text);
  return { metadata: { command: 'toc', tools: ['get_toc'] } satisfies ContextMetadata };
}

async function ask(
  connection: ServerConnection,
  request: ChatRequest,
  question: string,
  stream: ChatResponseStream,
  token: CancellationToken,
): Promise<ChatResult> {
  if (!question) {
    stream.markdown(
      'Ask about this workspace, e.g. `@context how do I roll back billing-worker?`. `/why`, `/expand`, `/toc` and `/change` answer without a model.',
    );
    return { metadata: { command: 'ask' } satisfies ContextMetadata };
  }
  stream.progress('Retrieving workspace context…');
  const material = await retrieve(connection, question);
  const all = [...material.passages, ...material.rules];
  for (const source of all) stream.reference(location(source));
  if (material.passages.length === 0) {
    stream.markdown(
      'Nothing in the indexed workspace matches this question, so there is nothing to answer from. Try other words, an entity name, or `/toc` to see what the rules library holds.',
    );
    return { metadata: { command: 'ask', tools: material.tools, sources: 0 } satisfies ContextMetadata };
  }

  let answer = '';
  try {
    const messages = [LanguageModelChatMessage.User(buildPrompt(question, material.passages, material.rules))];
    const response = await request.model.sendRequest(
      messages,
      { justification: 'Workspace Context answers from passages of this workspace.' },
      token,
    );
    for await (const fragment of response.text) {
      answer += fragment;
      stream.markdown(fragment);
    }
  } catch (error) {
    connection.output.warn(`[chat] the chat model did not answer: ${(error as Error).message}`);
    stream.markdown(
      `No chat model answered (${(error as Error).message}). The passages it would have answered from:\n\n`,
    );
    for (const source of all) {
      stream.markdown(`${source.n}. `);
      stream.anchor(location(source), `${source.label} (${placeOf(source)})`);
      stream.markdown('\n');
    }
    stream.markdown('\n`/why` shows how each was ranked.');
    return {
      metadata: { command: 'ask', tools: material.tools, sources: all.length, cited: [] } satisfies ContextMetadata,
    };
  }

  const cited = citedSources(answer, all);
  if (cited.length) {
    stream.markdown('\n\n**Sources**\n\n');
    for (const source of cited) {
      stream.markdown(`[${source.n}] `);
      stream.anchor(location(source), `${source.label} (${placeOf(source)})`);
      stream.markdown('\n\n');
    }
  }
  const followups: ChatFollowup[] = [{ prompt: question, command: 'why', label: 'Why these passages?' }];
  return {
    metadata: {
      command: 'ask',
      tools: material.tools,
      sources: all.length,
      cited: cited.map((s) => s.n),
      followups,
    } satisfies ContextMetadata,
  };
}

interface Material {
  /** The tools that answered. */
  tools: string[];
  /** `workspace_context`'s ranked passages (catalog, docs, overviews, epics, library). */
  passages: ChatSource[];
  /** The rule and instruction pages `get_context` assembled for the question, numbered after the passages. */
  rules: ChatSource[];
}

/**
 * Both retrievals at once: `workspace_context` for the passages that answer, and `get_context` for
 * the team's rules and instructions that apply to the task. A server without `get_context` (or
 * refusing its input) answers InvalidParams: the answer then comes from the passages alone.
 */
async function retrieve(connection: ServerConnection, question: string): Promise<Material> {
  const uriOf = workspacePathUri();
  const [passages, rules] = await Promise.allSettled([
    callTool(connection, 'workspace_context', { question, limit: CHAT_MODEL_PASSAGES }),
    callTool(connection, 'get_context', { task: question, format: 'json' }),
  ]);
  if (passages.status === 'rejected') throw passages.reason;
  const material: Material = {
    tools: ['workspace_context'],
    passages: sourcesFromOutput(passages.value.output, uriOf),
    rules: [],
  };
  if (rules.status === 'fulfilled') {
    material.tools.push('get_context');
    const pages = (rules.value.output as { pages?: unknown }).pages;
    material.rules = sourcesFromOutput(
      { pages: Array.isArray(pages) ? pages : [] },
      uriOf,
      material.passages.length + 1,
    );
  } else if (rules.reason instanceof ResponseError && rules.reason.code === INVALID_PARAMS) {
    connection.output.info(
      `[chat] get_context is not available (${rules.reason.message}); answering from workspace_context alone`,
    );
  } else {
    connection.output.warn(`[chat] get_context failed: ${(rules.reason as Error)?.message ?? rules.reason}`);
  }
  return material;
}

async function callTool<T = Record<string, unknown>>(
  connection: ServerConnection,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult & { output: T }> {
  return (await connection.client.sendRequest(CallToolRequest.type, { name, arguments: args })) as CallToolResult & {
    output: T;
  };
}

function location(source: ChatSource): Location {
  return new Location(
    Uri.parse(source.fileUri),
    new Range(Math.max(0, source.startLine - 1), 0, Math.max(0, source.endLine - 1), 0),
  );
}

/** Maps a workspace-relative path to a `file:` URI in the first workspace folder. */
function workspacePathUri(): (path: string) => string | undefined {
  const folder = workspace.workspaceFolders?.[0];
  return (relative) => (folder ? Uri.joinPath(folder.uri, ...relative.split('/')).toString() : undefined);
}
