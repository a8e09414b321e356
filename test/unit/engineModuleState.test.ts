/**
 * No per-engine state at module level in server/src/engine, library and store (docs/ARCHITECTURE.md,
 * "Where state lives"; `serve --config` opens one index per token over one store): what
 * belongs to one engine lives in the Engine object or in the host's services
 * (services/services.ts), never in a module-level `let`, Map, Set or WeakMap that two engines in
 * one process would share (or that a host must remember to fill).
 *
 * Read from the sources: every module-level `let`/`var`, and every module-level `const` that
 * holds a constructed object (`new Map()`, `new WeakMap()`, `new BoundedCache()`...), is either
 *
 * - a constant table: an UPPER_CASE name the file never mutates (`NAME.set/add/delete/clear`), or
 * - listed below with why it is not per-engine state: a memo of a pure function of an immutable
 *   key (the same answer whichever engine asks), a process-wide resource (a loaded native or
 *   WASM module, the shared git helper), or the embedding worker thread's own state.
 *
 * Nothing keyed by an Engine or a Services value is allowed, listed or not.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const SERVER = 'server/src';
/** The folders the rule covers: the index and what is built on it. */
const COVERED = ['engine', 'library', 'store'];

type Why = 'memo' | 'process' | 'worker' | 'table' | 'counter';

/** `file: name` (the file relative to server/src) -> why it is not per-engine state. */
const ALLOWED: Record<string, Why> = {
  // Memos keyed by immutable values (index states, views, sections, docs, term sets): pure functions of their key.
  'engine/ranking/rankingTables.ts: tables': 'memo',
  'engine/ranking/namedEntities.ts: dictionaries': 'memo',
  'engine/ranking/folderScope.ts: scoped': 'memo',
  'engine/indexing/docSites.ts: claimKeyOf': 'memo',
  'library/view/tocMap.ts: mapCache': 'memo',
  'library/view/libraryView.ts: views': 'memo',
  'library/view/summaries.ts: docSummaries': 'memo',
  'library/view/summaries.ts: sectionLines': 'memo',
  'library/view/summaries.ts: sectionTerms': 'memo',
  'library/view/summaries.ts: docCardTerms': 'memo',
  'library/view/conflicts.ts: cache': 'memo',
  'library/view/facts.ts: cache': 'memo',
  'library/models/derivedText.ts: bestSections': 'memo',
  'engine/indexing/counts.ts: catalogCountCache': 'memo',
  'library/context/scope.ts: instructionPages': 'memo',
  'library/explain/targetLookup.ts: lookups': 'memo',
  'library/context/contextIndex.ts: indexes': 'memo',
  'library/context/contextIndex.ts: sectionTermCache': 'memo',
  'library/context/contextIndex.ts: docContextCache': 'memo',
  'library/context/coherence.ts: caches': 'memo',
  'library/context/setup.ts: bodies': 'memo',
  'library/context/tableRows.ts: cache': 'memo',
  'library/context/sectionSearch.ts: derivedQuestionTerms': 'memo',
  'library/context/sectionSearch.ts: noteQuestionTerms': 'memo',
  'library/context/phraseMatch.ts: termCache': 'memo',
  // A page's own words, a library's subjects and near-duplicate pairs, the names of a catalog and
  // library: pure functions of entities, pages and sections never changed once made; the last
  // answer is kept for the same objects.
  'library/context/subjects.ts: rawSubjects': 'memo',
  'library/context/subjects.ts: textUses': 'memo',
  'library/context/subjects.ts: capitalUses': 'memo',
  'library/context/subjects.ts: docCapitalPairs': 'memo',
  'library/context/subjects.ts: lastSubjects': 'memo',
  'library/view/nearDuplicates.ts: lastPairs': 'memo',
  'library/models/nameDictionary.ts: lastDictionary': 'memo',
  // A change's lookups, each keyed by an index state (or a library page), built once per state.
  'library/context/render.ts: wholeBodies': 'memo',
  'library/context/change/changeAnalysis.ts: pathDocIndexes': 'memo',
  'library/context/change/changeBundle.ts: entityDocIndexes': 'memo',
  'library/context/change/changeInput.ts: tops': 'memo',
  'library/context/change/changeOwners.ts: indexes': 'memo',
  'library/context/change/changePages.ts: indexes': 'memo',
  'library/context/change/ruleScope.ts: matchers': 'memo',
  'library/context/phraseMatch.ts: norms': 'memo',
  'library/context/globEvidence.ts: matchers': 'memo',
  // Bounded text memos: the terms or stem of a string.
  'engine/text/porter.ts: cache': 'memo',
  'engine/text/analyzer.ts: memo': 'memo',
  // Marks the memo's own term lists that end with a token's joined word: a fact of the list's content.
  'engine/text/analyzer.ts: endsWithJoinedWord': 'memo',
  // The relation table, filled once at load from RELATION_PAIRS and only read after.
  'engine/graph/relationTypes.ts: forwardOf': 'table',
  'engine/graph/relationTypes.ts: inverseOf': 'table',
  // The platform's byte order: a constant boolean computed once.
  'engine/lexical/postingsCodec.ts: littleEndian': 'table',
  // Built on first use from constants: the half-float conversion table.
  'engine/embeddings/safetensors.ts: halfTable': 'table',
  // One per process: loaded native and WASM modules, their probes, the shared git helper.
  'engine/workspace/gitHelper.ts: defaultRunner': 'process',
  'engine/workspace/gitRunner.ts: safeDirectories': 'process',
  'engine/parsing/syntaxTree.ts: grammarLoads': 'process',
  'engine/parsing/syntaxTree.ts: runtimes': 'process',
  'engine/parsing/syntaxTree.ts: shared': 'process',
  'engine/vector/hnswIndex.ts: defaultLoad': 'process',
  'engine/vector/int8Dot.ts: compiled': 'process',
  'engine/embeddings/localEmbedder.ts: onnxProbe': 'process',
  // Distinguishes file tables across the process (snapshots, tests), never read as engine state.
  'engine/indexing/fileTable.ts: nextTableId': 'counter',
  // The embedding worker's entry: its module is the worker thread's own state.
  'engine/embeddings/embedWorker.ts: modelCalls': 'worker',
  'engine/embeddings/embedWorker.ts: closing': 'worker',
  'engine/embeddings/embedWorker.ts: quiescing': 'worker',
  'engine/embeddings/embedWorker.ts: onQuiet': 'worker',
};

interface Declaration {
  name: string;
  line: number;
  kind: 'let' | 'object';
  /** The declared type or the constructor call, for the Engine check. */
  text: string;
}

const LET = /^(?:export\s+)?(?:let|var)\s+(\w+)/;
const OBJECT = /^(?:export\s+)?const\s+(\w+)\s*(?::\s*([^=]+))?=\s*new\s+(\w+)/;

/** Module-level mutable declarations in one source (lines inside template strings are skipped). */
export function moduleLevelState(source: string): Declaration[] {
  const found: Declaration[] = [];
  let inTemplate = false;
  source.split('\n').forEach((line, i) => {
    const startsInTemplate = inTemplate;
    for (let j = 0; j < line.length; j++) if (line[j] === '`' && line[j - 1] !== '\\') inTemplate = !inTemplate;
    if (startsInTemplate) return;
    const asLet = LET.exec(line);
    if (asLet) found.push({ name: asLet[1], line: i + 1, kind: 'let', text: line });
    const asObject = OBJECT.exec(line);
    if (asObject) found.push({ name: asObject[1], line: i + 1, kind: 'object', text: line });
  });
  return found;
}

/** Why a declaration breaks the rule, or null when it keeps it. */
export function problemOf(file: string, source: string, d: Declaration): string | null {
  const where = `${file}:${d.line} ${d.name}`;
  if (/\b(Engine|Services)\b/.test(d.text))
    return `${where} holds state keyed by an engine: keep it in the Engine or the host's services`;
  const key = `${file}: ${d.name}`;
  if (ALLOWED[key]) return null;
  const constantTable =
    d.kind === 'object' &&
    /^[A-Z][A-Z0-9_]*$/.test(d.name) &&
    !new RegExp(`\\b${d.name}\\.(set|add|delete|clear)\\(`).test(source);
  if (constantTable) return null;
  return `${where} is module-level mutable state: move it into the Engine or the services, or list it in ALLOWED with why it is not per-engine`;
}

/** The covered sources, relative to server/src. */
function coveredSources(): string[] {
  return COVERED.flatMap((folder) =>
    (fs.readdirSync(path.join(ROOT, SERVER, folder), { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts'))
      .map((f) => `${folder}/${f.split(path.sep).join('/')}`),
  );
}

describe('engine module state (no per-engine state at module level)', () => {
  it('finds state in a crafted source, and keeps constant tables (the check can fail)', () => {
    const crafted = [
      'const states = new WeakMap<Engine, Hooks>();',
      'let served = 0;',
      "const KINDS = new Set(['a', 'b']);",
      'const GROWING = new Set<string>();',
      'export function f() { GROWING.add("x"); let local = 1; return local; }',
      'const TEXT = `',
      'let inTemplate = 1;',
      '`;',
    ].join('\n');
    const problems = moduleLevelState(crafted).map((d) => problemOf('example.ts', crafted, d));
    assert.deepEqual(problems, [
      "example.ts:1 states holds state keyed by an engine: keep it in the Engine or the host's services",
      'example.ts:2 served is module-level mutable state: move it into the Engine or the services, or list it in ALLOWED with why it is not per-engine',
      null,
      'example.ts:4 GROWING is module-level mutable state: move it into the Engine or the services, or list it in ALLOWED with why it is not per-engine',
    ]);
  });

  it(`${COVERED.map((f) => `server/src/${f}`).join(' and ')} hold no per-engine state at module level`, () => {
    const files = coveredSources();
    assert.ok(files.length > 20, 'the engine sources are found');
    const problems: string[] = [];
    let declarations = 0;
    for (const file of files) {
      const source = fs.readFileSync(path.join(ROOT, SERVER, file), 'utf8');
      for (const d of moduleLevelState(source)) {
        declarations++;
        const problem = problemOf(file, source, d);
        if (problem) problems.push(problem);
      }
    }
    assert.ok(declarations > 20, 'module-level declarations are found');
    assert.deepEqual(problems, []);
  });
});
