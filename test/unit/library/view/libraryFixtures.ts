/**
 * Library workspaces written by the tests: real Markdown files with front matter in a temp dir,
 * indexed by a real engine. Content is generated deterministically, so sizes and ids are exact.
 */
import { Engine } from '../../../../server/src/engine/engine';
import type { IndexState } from '../../../../server/src/engine/indexState';
import { libraryView, type LibraryView } from '../../../../server/src/library/view/libraryView';
import { tempDir, write } from '../../../helpers/tempWorkspace';

/** The day every library test judges expiry by. */
export const TODAY = '2026-06-01';

export interface PageSpec {
  /** Path under the workspace, e.g. `.context/rules/a.md`. */
  path: string;
  /** Front matter fields (written as YAML flow values). */
  front?: Record<string, unknown>;
  body: string;
}

export function frontMatter(fields: Record<string, unknown> | undefined): string {
  if (!fields || Object.keys(fields).length === 0) return '';
  const lines = Object.entries(fields).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return `---\n${lines.join('\n')}\n---\n\n`;
}

/** Writes the pages (and folder.yaml files, path -> text) into a new temp workspace. */
export function writeLibrary(pages: readonly PageSpec[], folders: Record<string, string> = {}, label = 'lib'): string {
  const dir = tempDir(label);
  for (const page of pages) write(dir, page.path, `${frontMatter(page.front)}${page.body}`);
  for (const [path, text] of Object.entries(folders)) write(dir, path, text);
  return dir;
}

export interface IndexedLibrary {
  dir: string;
  engine: Engine;
  state: IndexState;
  view: LibraryView;
}

export async function indexLibrary(dir: string, name = 'lib'): Promise<IndexedLibrary> {
  const engine = new Engine({ folders: [{ name, absPath: dir }], settings: { refreshAfterMs: 0 } });
  const state = await engine.waitForIndex();
  return { dir, engine, state, view: libraryView(state, TODAY) };
}

/** `count` deterministic sentences about `topic` (each ~70 characters). */
export function sentences(topic: string, count: number): string {
  const verbs = ['checks', 'records', 'explains', 'limits', 'describes', 'lists', 'names', 'covers'];
  const out: string[] = [];
  for (let i = 0; i < count; i++)
    out.push(`The ${topic} step ${i + 1} ${verbs[i % verbs.length]} what the reviewer needs to know.`);
  return out.join(' ');
}

/**
 * A generated page: `# Title` then `sections - 1` second-level sections of `sentencesPerSection`
 * sentences each (the title section holds one sentence).
 */
export function generatedPage(
  path: string,
  title: string,
  sections: number,
  sentencesPerSection: number,
  front: Record<string, unknown> = {},
): PageSpec {
  const parts = [`# ${title}\n\n${sentences(title.toLowerCase(), 1)}`];
  for (let s = 1; s < sections; s++)
    parts.push(`## Part ${s} of ${title}\n\n${sentences(`part ${s}`, sentencesPerSection)}`);
  return { path, front: { title, ...front }, body: `${parts.join('\n\n')}\n` };
}
