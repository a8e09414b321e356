/**
 * What the words-only ranking tests share: a workspace indexed with embeddings off, its
 * `workspace_context` ranking at a fixed date, a passage named by its file and heading, and an
 * epic page's text.
 */
import { Engine } from '../../../../server/src/engine/engine';
import type { IndexState } from '../../../../server/src/engine/indexState';
import { rankWorkspaceContext, type RankedPassage } from '../../../../server/src/engine/ranking/workspaceContextRanker';

export const NOW = Date.UTC(2026, 11, 1);

export async function index(dir: string): Promise<{ engine: Engine; state: IndexState }> {
  const engine = new Engine({ folders: [{ name: 'ws', absPath: dir }], embeddings: { provider: 'off' } });
  return { engine, state: await engine.waitForIndex() };
}

export function rank(state: IndexState, question: string, limit = 10): RankedPassage[] {
  return rankWorkspaceContext(state, { question, limit, now: NOW }).passages;
}

/** `path › last heading` of a passage. */
export const heading = (p: RankedPassage) =>
  `${p.entry.doc.path} › ${p.entry.section.headingPath[p.entry.section.headingPath.length - 1]}`;

/** An epic page; `extra` adds front matter lines (each ending in a newline). */
export const epic = (title: string, body: string, extra = '') =>
  `---\nkind: epic\n${extra}---\n# ${title}\n\n${body}\n`;
