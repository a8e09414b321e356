/**
 * Inputs for timing every tool in `TOOLS`, whatever tools exist when the bench runs.
 *
 * Each field of a tool's input schema is filled by its name: `workspace` with the folder's name;
 * `question`, `query`, `task` and `plan` with the next query of the shared list; `entityRef` with
 * the next sampled entity; section and page ids with sampled ids of served library pages. An
 * optional id field is filled only when the tool has no query field (`get_toc` takes a query or
 * a document id: the bench times the query). Optional fields not named here are left out (the
 * tool's defaults). A tool with a required field nobody knows how to fill is
 * skipped with a note naming the field, so a new tool shows up in the table either timed or
 * explained, never silently missing. `TOOL_OVERRIDES` sets what a tool's figure means (for
 * `workspace_expand`, depth 3 in both directions).
 */
import type { ZodType } from 'zod';
import type { AnyToolDefinition } from '../server/src/tools/toolDefinition';

/** What the inputs are drawn from; lists are cycled through call by call. */
export interface ToolInputPools {
  workspace: string;
  queries: readonly string[];
  entityRefs: readonly string[];
  /** Full section ids. */
  sectionIds: readonly string[];
  /** Full ids of library documents (pages), or of any documents when there is no library. */
  pageIds: readonly string[];
}

/** Tools the contracts define (docs/ARCHITECTURE.md); the bench names the ones not in `TOOLS` yet. */
export const EXPECTED_TOOLS: readonly string[] = [
  'workspace_context',
  'workspace_expand',
  'search_instructions',
  'get_toc',
  'get_context',
  'get_section',
  'read_page',
  'get_file',
  'explain_result',
];

/** Fixed arguments per tool: what its figure measures. */
export const TOOL_OVERRIDES: Readonly<Record<string, Record<string, unknown>>> = {
  workspace_expand: { depth: 3, direction: 'both' },
};

/** Optional fields left out per tool: explain_result takes a question or a task, never both (timed with the question). */
export const TOOL_OMITTED: Readonly<Record<string, readonly string[]>> = {
  explain_result: ['task'],
};

const QUERY_FIELDS = new Set(['question', 'query', 'task', 'plan']);
const ID_FIELDS = new Set(['id', 'sectionId', 'section_id', 'page_id', 'pageId', 'document_id', 'documentId']);

/** How each known field is filled for call number `i`. */
const FIELD_FILLERS: Readonly<Record<string, (pools: ToolInputPools, i: number) => unknown>> = {
  workspace: (p) => p.workspace,
  question: (p, i) => cycle(p.queries, i),
  query: (p, i) => cycle(p.queries, i),
  task: (p, i) => cycle(p.queries, i),
  plan: (p, i) => cycle(p.queries, i),
  entityRef: (p, i) => cycle(p.entityRefs, i),
  // explain_result's expected page: an id of a section (any page of the workspace).
  expected: (p, i) => cycle(p.sectionIds, i),
  id: (p, i) => cycle(p.sectionIds, i),
  sectionId: (p, i) => cycle(p.sectionIds, i),
  section_id: (p, i) => cycle(p.sectionIds, i),
  page_id: (p, i) => cycle(p.pageIds, i),
  pageId: (p, i) => cycle(p.pageIds, i),
  document_id: (p, i) => cycle(p.pageIds, i),
  documentId: (p, i) => cycle(p.pageIds, i),
};

/** A way to make call `i`'s input, or why the tool cannot be timed. */
export type ToolInputPlan =
  | { kind: 'ok'; input: (i: number) => Record<string, unknown>; describe: string }
  | { kind: 'skip'; reason: string };

export function planToolInput(tool: AnyToolDefinition, pools: ToolInputPools): ToolInputPlan {
  const overrides = TOOL_OVERRIDES[tool.name] ?? {};
  const filled: string[] = [];
  const fields = Object.entries(tool.input as Record<string, ZodType>);
  const hasQuery = fields.some(([field]) => QUERY_FIELDS.has(field));
  const omitted = TOOL_OMITTED[tool.name] ?? [];
  for (const [field, schema] of fields) {
    if (field in overrides || omitted.includes(field)) continue;
    const required = !schema.safeParse(undefined).success;
    const filler = FIELD_FILLERS[field];
    if (filler && (required || !(hasQuery && ID_FIELDS.has(field)))) {
      const sample = filler(pools, 0);
      if (sample === undefined) return { kind: 'skip', reason: `no value to give field '${field}' in this workspace` };
      filled.push(field);
    } else if (required && !filler) {
      return {
        kind: 'skip',
        reason: `required field '${field}' has no generated input (add it to bench/toolInputs.ts)`,
      };
    }
  }
  const describe = [...filled, ...Object.entries(overrides).map(([k, v]) => `${k}=${JSON.stringify(v)}`)].join(', ');
  return {
    kind: 'ok',
    describe,
    input: (i) => {
      const input: Record<string, unknown> = { ...overrides };
      for (const field of filled) input[field] = FIELD_FILLERS[field](pools, i);
      return input;
    },
  };
}

function cycle<T>(items: readonly T[], i: number): T | undefined {
  return items.length === 0 ? undefined : items[i % items.length];
}
