/**
 * The REST API's endpoints, each over one tool: its path, the argument names the API spells its
 * own way, and what its JSON answer leaves out (restApi.ts serves them, openApi.ts describes them).
 */
import { findTool } from '../tools/registry';
import type { AnyToolDefinition } from '../tools/toolDefinition';
import type { AnswerFormat } from './restInput';

/** One REST endpoint over one tool. */
export interface RestEndpoint {
  path: string;
  tool: AnyToolDefinition;
  summary: string;
  /** Argument names the API spells its own way, and the tool's names for them. */
  aliases: Readonly<Record<string, string>>;
  /** The tool's input for an answer in `format` (get_context builds JSON itself; others need nothing). */
  inputFor(input: Record<string, unknown>, format: AnswerFormat): Record<string, unknown>;
  /** The answer as JSON: the tool's answer, without what only an in-process caller reads. */
  json(output: Record<string, unknown>): unknown;
}

export const OPENAPI_PATH = '/openapi.json';

/** The endpoints, in the order docs/rest.md and the OpenAPI description list them. */
export const REST_ENDPOINTS: readonly RestEndpoint[] = [
  {
    path: '/context',
    tool: findTool('get_context')!,
    summary:
      'The budgeted bundle get_context hands an agent: Markdown, or JSON with every page, its reason and each searched section’s similarity.',
    aliases: { budget: 'max_tokens' },
    inputFor: (input, format) => ({ ...input, format }),
    json(output) {
      // As get_context's own JSON text: the Markdown is not asked for, and the judge's verdicts
      // (which can pass the budget) stay in the call log.
      const { markdown: _markdown, judge, ...rest } = output as { markdown?: string; judge: Record<string, unknown> };
      const { verdicts: _verdicts, ...summary } = judge;
      return { ...rest, judge: summary };
    },
  },
  {
    path: '/workspace_context',
    tool: findTool('workspace_context')!,
    summary: 'Ranked passages for a question, each with its source, score and why[]: Markdown, or JSON.',
    aliases: {},
    inputFor: (input) => input,
    json: (output) => output,
  },
];
