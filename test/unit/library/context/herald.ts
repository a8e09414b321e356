/**
 * Shared by the get_context tests: the purpose-built Taxwell library (test/fixtures/herald),
 * libraries generated into temp dirs, and one call of the pipeline with test hooks.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../../../../server/src/engine/engine';
import { buildContext, type BuiltContext } from '../../../../server/src/library/context/getContext';
import type { ContextHooks } from '../../../../server/src/library/context/hooks';
import type { ContextRequest } from '../../../../server/src/library/context/types';
import { libraryView, type LibraryView } from '../../../../server/src/library/view/libraryView';
import { NO_MODEL } from '../../../../server/src/library/models/modelProvider';
import { VerdictCache } from '../../../../server/src/library/models/verdictCache';
import { tempDir, write } from '../../../helpers/tempWorkspace';

export const TAXWELL = path.resolve(__dirname, '../../../fixtures/herald/taxwell');
export const GOLDEN = path.resolve(__dirname, '../../../fixtures/herald/golden');
export const TODAY = '2026-06-01';
export const COLD_EMAIL = 'cold email to a CFO switching from Avalara';

export interface Indexed {
  engine: Engine;
  view: LibraryView;
  dir: string;
}

export async function indexDir(dir: string, name = 'taxwell'): Promise<Indexed> {
  const engine = new Engine({ folders: [{ name, absPath: dir }], settings: { refreshAfterMs: 0 } });
  const state = await engine.waitForIndex();
  return { engine, view: libraryView(state, TODAY), dir };
}

/** The real libraries of get_context's dev suite (test/fixtures/<name>/library, SOURCE.txt beside each). */
export const DEV_LIBRARIES = ['awesome-copilot', 'instructa-ai-prompts', 'windsurf-agent-rules-kit'] as const;

/**
 * Indexes the dev suite's libraries once for a describe block: the returned record fills before
 * its tests run and its engines are disposed after them.
 */
export function devLibraries(): Record<string, Indexed> {
  const libs: Record<string, Indexed> = {};
  before(async () => {
    for (const name of DEV_LIBRARIES)
      libs[name] = await indexDir(path.resolve(__dirname, '../../../fixtures', name, 'library'), name);
  });
  after(() => {
    for (const lib of Object.values(libs)) lib.engine.dispose();
  });
  return libs;
}

/** A page as the dev suite names it: its path below its format's root, without extensions (`clerk-next/setup-clerk-next`). */
export function pageLabel(path: string): string {
  return path
    .replace(/^.*?(\.github\/instructions\/|\.cursor\/rules\/|\.windsurf\/rules\/)/, '')
    .replace(/(\.instructions)?\.(md|mdc)$/, '');
}

/** A copy of the Taxwell fixture in a temp dir (for tests that edit or add files). */
export function copyTaxwell(): string {
  const dir = tempDir('taxwell');
  fs.cpSync(TAXWELL, dir, { recursive: true });
  return dir;
}

/** Writes files (path -> text) into a new temp workspace. */
export function writeWorkspace(files: Record<string, string>, label = 'herald'): string {
  const dir = tempDir(label);
  for (const [rel, text] of Object.entries(files)) write(dir, rel, text);
  return dir;
}

/** A page with front matter from `fields` (YAML flow values) and `body`. */
export function pageText(fields: Record<string, unknown>, body: string): string {
  const lines = Object.entries(fields).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  return `---\n${lines.join('\n')}\n---\n\n${body}`;
}

export function testHooks(hooks: Partial<ContextHooks> = {}): ContextHooks {
  return { models: NO_MODEL, judgeMode: 'gate', verdicts: new VerdictCache(), ...hooks };
}

export function run(
  view: LibraryView,
  request: ContextRequest | string,
  hooks: Partial<ContextHooks> = {},
  organization = 'Taxwell',
): Promise<BuiltContext> {
  return buildContext({
    view,
    request: typeof request === 'string' ? { task: request } : request,
    hooks: testHooks(hooks),
    organization,
  });
}

/** `[title, reason, whole]` of every reference page, in order. */
export function referencePages(built: BuiltContext): [string, string, boolean][] {
  return built.bundle.reference.map((p) => [p.doc.title, p.reason, p.whole]);
}

/** `[page title, heading under the title]` of every excerpt, pages in bundle order, sections in page order (as rendered). */
export function excerpts(built: BuiltContext): [string, string][] {
  return built.bundle.reference
    .filter((p) => !p.whole)
    .flatMap((p) =>
      [...p.sections]
        .sort((a, b) => a.entry.position - b.entry.position)
        .map((s) => [p.doc.title, s.entry.section.headingPath.slice(1).join(' › ')] as [string, string]),
    );
}
