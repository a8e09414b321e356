/**
 * Drives every tool a server lists through the official SDK client, with one corpus's questions
 * and tasks and every follow-up an agent would make from the answers (the pages, sections,
 * files and entities they name), and records each call whose answer a strict client refused or
 * that came back as an error.
 *
 * The client is a strict one (test/helpers/mcpClients.ts lists the tools on connect), so the SDK
 * itself checks every structured answer against the tool's published output schema; the server
 * under test runs with WSCTX_VALIDATE_OUTPUT=1 and checks the same before it sends.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ConformanceCorpus } from './corpora';

export interface ToolRun {
  /** Calls made, by tool. */
  calls: Record<string, number>;
  /** Milliseconds spent waiting for each tool's answers (CONFORMANCE_TIMES=1 prints them). */
  ms: Record<string, number>;
  /** One line per call that failed: the tool, its arguments and what was wrong. */
  failures: string[];
  /** The tools the server listed. */
  listed: string[];
}

/** Follow-ups asked at most this many times per corpus for each kind (they repeat across answers). */
const FOLLOW_UPS = 60;

type Answer = Record<string, unknown>;

export interface DriveOptions {
  /** Only every n-th question and task (HTTP's deterministic subset); 1 = all. */
  every?: number;
}

export async function driveTools(
  client: Client,
  corpus: ConformanceCorpus,
  options: DriveOptions = {},
): Promise<ToolRun> {
  const run: ToolRun = { calls: {}, ms: {}, failures: [], listed: [] };
  const { tools } = await client.listTools();
  run.listed = tools.map((t) => t.name);
  const listed = new Set(run.listed);
  const every = options.every ?? 1;

  /** `refusal`: the call is one the tool refuses (an error result is its answer, and is not checked). */
  const call = async (name: string, args: Answer, refusal = false): Promise<Answer | undefined> => {
    if (!listed.has(name)) return undefined;
    run.calls[name] = (run.calls[name] ?? 0) + 1;
    const started = performance.now();
    try {
      const result = await client.callTool({ name, arguments: args });
      run.ms[name] = (run.ms[name] ?? 0) + Math.round(performance.now() - started);
      const text = (result.content as { type: string; text?: string }[] | undefined)?.[0]?.text ?? '';
      if (result.isError) {
        if (refusal) return undefined;
        run.failures.push(`${name} ${JSON.stringify(args)}: error result: ${text.slice(0, 600)}`);
        return undefined;
      }
      if (!result.structuredContent) {
        run.failures.push(`${name} ${JSON.stringify(args)}: no structured content`);
        return undefined;
      }
      return result.structuredContent as Answer;
    } catch (error) {
      // The SDK client's own refusal: "Structured content does not match the tool's output schema".
      run.failures.push(`${name} ${JSON.stringify(args)}: ${(error as Error).message.slice(0, 600)}`);
      return undefined;
    }
  };

  const entityRefs = new Map<string, string>();
  const pageIds = new Set<string>();
  const fileIds = new Set<string>();
  const sectionIds = new Set<string>();
  const documentIds = new Set<string>();

  const questions = [...corpus.questions, ...corpus.tasks.map((t) => ({ question: t.task, expected: undefined }))];
  for (const [i, q] of questions.entries()) {
    if (i % every !== 0) continue;
    const answer = await call('workspace_context', { question: q.question });
    for (const p of (answer?.passages ?? []) as { folder: string; entityRefs: string[] }[])
      for (const ref of p.entityRefs) if (!entityRefs.has(ref)) entityRefs.set(ref, p.folder);
    if (q.expected) await call('explain_result', { question: q.question, expected: q.expected });
  }

  for (const [i, t] of corpus.tasks.entries()) {
    if (i % every !== 0) continue;
    await call('get_context', { task: t.task, ...t.args });
    const json = await call('get_context', { task: t.task, ...t.args, format: 'json' });
    for (const page of (json?.pages ?? []) as {
      id: string;
      reason: string;
      file?: string;
      sections: { id: string }[];
    }[]) {
      // An entity's doc, overview or epic (reason `entity`) is not a library page: its excerpts carry no page_id.
      if (page.reason === 'entity') continue;
      pageIds.add(page.id);
      if (page.file) fileIds.add(page.id);
      for (const s of page.sections) sectionIds.add(s.id);
    }
    const found = await call('search_instructions', { plan: t.task });
    for (const doc of (found?.documents ?? []) as { id: string }[]) documentIds.add(doc.id);
    await call('get_toc', { query: t.task });
    if (t.expected) await call('explain_result', { task: t.task, ...t.args, expected: t.expected });
  }

  await call('get_toc', {});
  const first = <T>(set: Iterable<T>) => [...set].slice(0, FOLLOW_UPS);
  for (const id of first(pageIds)) await call('read_page', { page_id: id });
  for (const id of first(fileIds)) await call('get_file', { page_id: id });
  // A library without attached files still lists get_file: asked for a page without one, it refuses.
  const plain = [...pageIds].find((id) => !fileIds.has(id));
  if (fileIds.size === 0 && plain) await call('get_file', { page_id: plain }, true);
  for (const id of first(sectionIds)) await call('get_section', { id });
  for (const id of first(documentIds)) await call('get_toc', { document_id: id });
  for (const [entityRef, workspace] of first(entityRefs)) {
    await call('workspace_expand', { workspace, entityRef });
    await call('workspace_expand', { workspace, entityRef, depth: 3, direction: 'both' });
  }
  return run;
}
