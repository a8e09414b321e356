/**
 * The custom requests that call tools: search (the command palette), results documents, and any
 * tool of the shared table by name. Tools are called through `callTool`, exactly as the MCP server
 * and the CLI call them, so the editor answers what an agent would get.
 *
 * A caller's mistake (a bad limit, an unknown tool, a refused depth) becomes a JSON-RPC
 * InvalidParams error with the tool's own message; anything else is an internal error.
 */
import { ErrorCodes, ResponseError } from 'vscode-languageserver';
import type {
  CallToolParams,
  CallToolResult,
  ResultsDocumentInfo,
  SearchParams,
  SearchPassage,
  SearchResult,
  WhyTerm,
} from '../../../../shared/protocol';
import { callTool } from '../../tools/callTool';
import { findTool, TOOLS } from '../../tools/registry';
import { InputError } from '../../tools/toolError';
import { passageMarkers, type ContextOutput } from '../../tools/workspaceContext';
import type { FeatureContext } from './context';
import { passageLabel } from './resultsDocument';

/** Leading `why[]` terms shown with each search result. Default 3. */
export const LEADING_WHY_TERMS = 3;
/** Characters of a passage shown as its preview. Default 160. */
export const PREVIEW_CHARS = 160;

export async function callToolRequest(ctx: FeatureContext, params: CallToolParams): Promise<CallToolResult> {
  const services = ctx.services();
  if (!services)
    throw new ResponseError(
      ErrorCodes.InvalidRequest,
      'No workspace folder is open; open a folder to use Workspace Context.',
    );
  const tool = findTool(params?.name ?? '');
  if (!tool)
    throw new ResponseError(
      ErrorCodes.InvalidParams,
      `name: no tool "${params?.name}"; use one of ${TOOLS.map((t) => t.name).join(', ')}.`,
    );
  // Tools that need a workspace folder default to the first one; workspace_context, whose
  // workspace may be left out, asks every folder; the library tools take none.
  const needsWorkspace =
    'workspace' in tool.input &&
    !(tool.input as Record<string, { safeParse(v: unknown): { success: boolean } }>).workspace.safeParse(undefined)
      .success;
  const input = {
    ...(needsWorkspace ? { workspace: services.engine.folders[0].name } : {}),
    ...(params.arguments ?? {}),
  };
  try {
    const output = await callTool(services, tool, input, { sessionId: 'lsp' });
    return { name: tool.name, output, text: tool.renderText(output) };
  } catch (error) {
    if (error instanceof InputError) throw new ResponseError(ErrorCodes.InvalidParams, error.message);
    throw error;
  }
}

async function askWorkspace(ctx: FeatureContext, params: SearchParams): Promise<ContextOutput> {
  const args: Record<string, unknown> = {
    question: params?.question ?? '',
    limit: params?.limit ?? ctx.settings().budgets.contextPassages,
  };
  if (params?.sourceKinds) args.sourceKinds = params.sourceKinds;
  return (await callToolRequest(ctx, { name: 'workspace_context', arguments: args })).output as ContextOutput;
}

export async function search(ctx: FeatureContext, params: SearchParams): Promise<SearchResult> {
  const answer = await askWorkspace(ctx, params);
  const passages = answer.passages.map((p): SearchPassage => {
    const why: WhyTerm[] = p.why.map((w) => ({
      signal: w.signal,
      weight: w.weight,
      raw: w.raw,
      contribution: w.contribution,
      detail: w.detail,
    }));
    return {
      id: p.id,
      documentId: p.documentId,
      title: p.title,
      headingPath: p.headingPath,
      label: `${p.expired ? '[expired] ' : ''}${p.conflicts?.length ? '[conflict] ' : ''}${passageLabel(p)}`,
      sourceKind: p.sourceKind,
      path: p.sourceRef.path,
      startLine: p.sourceRef.startLine,
      endLine: p.sourceRef.endLine,
      uri: p.sourceUri,
      score: p.score,
      leadingWhy: [...why]
        .filter((w) => w.contribution > 0)
        .sort((a, b) => b.contribution - a.contribution)
        .slice(0, LEADING_WHY_TERMS),
      why,
      preview: preview(p.text),
      ...(p.expired || p.conflicts?.length ? { markers: passageMarkers(p) } : {}),
      ...(params?.withText ? { text: p.text } : {}),
    };
  });
  return {
    question: answer.question,
    passages,
    contractVersion: answer.contractVersion,
    indexedAt: answer.indexedAt,
    degraded: answer.degraded,
    ...(answer.notice ? { notice: answer.notice } : {}),
  };
}

export async function openResults(ctx: FeatureContext, params: SearchParams): Promise<ResultsDocumentInfo> {
  return ctx.results.create(await askWorkspace(ctx, params));
}

/** The passage's text without its heading line, whitespace collapsed, cut at a word. */
function preview(text: string): string {
  const body = text
    .replace(/^#{1,6}\s.*\n?/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (body.length <= PREVIEW_CHARS) return body;
  const cut = body.slice(0, PREVIEW_CHARS);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), PREVIEW_CHARS / 2))}…`;
}
