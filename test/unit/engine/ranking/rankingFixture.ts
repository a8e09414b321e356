/**
 * What the words-only ranking tests share: a workspace indexed with embeddings off, its
 * `workspace_context` ranking at a fixed date, a passage named by its file and heading, and an
 * epic page's text.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../../../../server/src/engine/engine';
import type { IndexState } from '../../../../server/src/engine/indexState';
import { rankWorkspaceContext, type RankedPassage } from '../../../../server/src/engine/ranking/workspaceContextRanker';
import { tempDir, write } from '../../../helpers/tempWorkspace';

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

const CORPORA = path.resolve(__dirname, '../../../../bench/corpora');

/**
 * A docs repository of one catalog entity holding `files` of a bench corpus (paths under its
 * docs/; `corpus` may name one repository of a several-repository corpus, `secrets/reloader`), in
 * a temporary folder: the pages indexed as the site they come from.
 */
export function corpusDocsRepository(corpus: string, files: readonly string[]): string {
  const name = corpus.slice(corpus.lastIndexOf('/') + 1);
  const dir = tempDir(name);
  write(
    dir,
    'catalog-info.yaml',
    [
      'apiVersion: backstage.io/v1alpha1',
      'kind: Component',
      'metadata:',
      `  name: ${name}`,
      '  annotations:',
      '    backstage.io/techdocs-ref: dir:.',
      'spec:',
      '  type: service',
      '  lifecycle: production',
      '  owner: docs',
      '',
    ].join('\n'),
  );
  write(dir, 'mkdocs.yml', `site_name: ${name}\n`);
  for (const file of files) write(dir, `docs/${file}`, readFileSync(path.join(CORPORA, corpus, 'docs', file), 'utf8'));
  return dir;
}
