/**
 * "Context for my change" (the Source Control view, `@context /change`): the change git shows in
 * the served repositories (tools/changeFromGit.ts: read-only, hardened) given to `get_context`
 * through `callTool`, as an agent's call would be, and the bundle kept as a results document.
 *
 * A caller's mistake (no change, a range git does not know or would read as an option) is a
 * JSON-RPC InvalidParams error with the reason.
 */
import { ErrorCodes, ResponseError } from 'vscode-languageserver';
import type { ChangeContextParams, ChangeContextResult } from '../../../../shared/protocol';
import { callTool } from '../../tools/callTool';
import { changeFromGit } from '../../tools/changeFromGit';
import { getContextTool, type GetContextOutput } from '../../tools/getContext';
import { InputError } from '../../tools/toolError';
import type { FeatureContext } from './context';

export async function changeContext(ctx: FeatureContext, params: ChangeContextParams): Promise<ChangeContextResult> {
  const services = ctx.services();
  if (!services)
    throw new ResponseError(
      ErrorCodes.InvalidRequest,
      'No workspace folder is open; open a folder to use Workspace Context.',
    );
  const state = ctx.state() ?? (await services.engine.waitForIndex());
  const request = params?.range ? { range: params.range } : params?.which === 'staged' ? { staged: true } : {};
  try {
    const change = await changeFromGit(state.repos, request);
    if (change.files === 0)
      throw new InputError(
        `git shows no change (${change.compared}) in ${change.folders.join(', ')}: nothing to give the context of`,
      );
    for (const skipped of change.skipped) ctx.log(`[change context] ${skipped.folder} left out: ${skipped.reason}`);
    const input: Record<string, unknown> = {
      changes: { diff: change.diff },
      max_tokens: params?.maxTokens ?? ctx.settings().budgets.getContextMaxTokens,
      format: 'markdown',
    };
    if (params?.task?.trim()) input.task = params.task.trim();
    const out = (await callTool(services, getContextTool, input, { sessionId: 'lsp' })) as GetContextOutput;
    // The Markdown is the bundle as an agent reads it; the structured answer carries every item.
    const markdown = out.markdown ?? getContextTool.renderText(out);
    const changes = out.changes!;
    const title = `Context for ${change.compared === 'the working tree against HEAD' ? 'my change' : change.compared}`;
    const info = ctx.results.createText(
      title,
      `change ${changes.entities.map((e) => e.ref.split('/').pop()).join(' ')}`,
      markdown,
    );
    return {
      ...info,
      compared: change.compared,
      files: changes.filesTotal,
      entities: changes.entities.map((e) => e.ref),
      unowned: changes.unowned,
      items: changes.items.map((i) => ({
        reason: i.reason,
        label: i.ref ?? i.question ?? i.title ?? i.path ?? '',
        ...(i.path ? { path: i.path } : {}),
        sent: i.sent,
      })),
      markdown,
    };
  } catch (error) {
    if (error instanceof InputError) throw new ResponseError(ErrorCodes.InvalidParams, error.message);
    throw error;
  }
}
