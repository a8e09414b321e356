/**
 * `workspace_context`: ranked passages for a plain question, each with its provenance and the
 * `why[]` that produced its score (seed 001), plus the one-hop neighbourhood of every entity the
 * passages cite.
 */
import { z } from 'zod';
import { boundedList, boundedString, INPUT_LIMITS, oneOf, wholeNumber } from './inputLimits';
import { shortId } from '../engine/chunking/ids';
import type { Engine } from '../engine/engine';
import type { IndexState } from '../engine/indexState';
import { SOURCE_KINDS, type SourceKind } from '../engine/model';
import { RELATION_PAIRS } from '../engine/graph/relationTypes';
import { CONTRACT_VERSION, DOCUMENT_CAP } from '../engine/ranking/contract';
import { rankWorkspaceContext, type RankedPassage, type RankResult } from '../engine/ranking/workspaceContextRanker';
import { fromWorkspacePath } from '../engine/workspace/paths';
import { pathToFileURL } from 'node:url';
import { storeReaderOf } from '../engine/store/storeReader';
import { completePassages, stateForQuery, wholeLibraryState } from './queryState';
import { logged } from './callLog';
import { ToolInputError } from './toolError';
import type { Services } from '../services/services';
import { libraryView } from '../engine/library/libraryView';
import { dayOf } from '../engine/library/readiness';
import { librarySoundness, type LibrarySoundness } from '../engine/library/soundness';
import { isExpired } from '../engine/sources/library';
import { conflictOutput, conflictSchema } from './conflictOutput';
import type { ToolDefinition } from './toolDefinition';

export const CONTEXT_DEFAULT_LIMIT = 10;
export const CONTEXT_MAX_LIMIT = 50;
/** Serialized size the passages of one answer may take (JSON bytes); the rest is reported as capped. */
export const CONTEXT_BYTE_BUDGET = 96 * 1024;
/** Neighbourhood caps: entities described, and edges listed per entity. */
export const NEIGHBOURHOOD_MAX_ENTITIES = 12;
export const NEIGHBOURHOOD_MAX_EDGES = 10;

const input = {
  workspace: boundedString(INPUT_LIMITS.workspace).min(1).describe(`Workspace folder to answer from: its name or path (at most ${INPUT_LIMITS.workspace} characters).`),
  question: boundedString(INPUT_LIMITS.text).describe(`A plain-language question, e.g. "how do we roll back billing-worker?" (at most ${INPUT_LIMITS.text} characters).`),
  limit: wholeNumber(1, CONTEXT_MAX_LIMIT, CONTEXT_DEFAULT_LIMIT).describe(`How many passages, 1 to ${CONTEXT_MAX_LIMIT} (default ${CONTEXT_DEFAULT_LIMIT}).`),
  asOf: boundedString(INPUT_LIMITS.asOf).optional().describe(`ISO date-time or commit: answer from the workspace as it was then (at most ${INPUT_LIMITS.asOf} characters).`),
  sourceKinds: boundedList(oneOf(SOURCE_KINDS, 'a source kind', true)).optional().describe(`Only these kinds of source: ${SOURCE_KINDS.join(', ')}.`),
};

const whyTerm = z.object({
  signal: z.string(),
  weight: z.number(),
  raw: z.number(),
  contribution: z.number(),
  detail: z.string(),
  terms: z
    .array(z.object({ term: z.string(), weight: z.number(), share: z.number(), saturation: z.number(), fields: z.array(z.string()) }))
    .optional()
    .describe('words and title: each question term; raw = the sum of share x saturation'),
});

const passage = z.object({
  id: z.string(),
  documentId: z.string(),
  title: z.string(),
  headingPath: z.array(z.string()),
  text: z.string(),
  entityRefs: z.array(z.string()),
  sourceKind: z.string(),
  sourceRef: z.object({ path: z.string(), startLine: z.number(), endLine: z.number() }),
  sourceCommit: z.string().nullable(),
  dirty: z.boolean(),
  sourceUri: z.string(),
  score: z.number(),
  why: z.array(whyTerm),
  /** A library page past its `expires` date (YYYY-MM-DD): the library tools no longer serve it. */
  expired: z.string().optional(),
  /** What this passage states that another library page states differently (unsettled flags). */
  conflicts: z.array(conflictSchema).optional(),
});

const neighbour = z.object({
  entity: z.string(),
  kind: z.string(),
  title: z.string().optional(),
  edges: z.array(z.object({ source: z.string(), type: z.string(), target: z.string(), resolved: z.boolean() })),
  moreEdges: z.number(),
});

const output = {
  workspace: z.string(),
  question: z.string(),
  contractVersion: z.string(),
  passages: z.array(passage),
  neighbourhood: z.array(neighbour),
  queryTerms: z.array(z.object({ term: z.string(), surface: z.string(), weight: z.number() })),
  namedEntities: z.array(z.string()),
  candidates: z.number(),
  candidatesCapped: z.object({ droppedTerms: z.array(z.string()), droppedByBudget: z.number(), byteBudget: z.number() }).optional(),
  /**
   * Passages the per-document cap (at most DOCUMENT_CAP of one document) kept out of the answer,
   * by document, best first: each scored above the last passage shown. Absent when it kept none.
   */
  heldBack: z
    .object({ perDocument: z.number(), documents: z.array(z.object({ documentId: z.string(), title: z.string(), path: z.string(), passages: z.number(), bestScore: z.number() })) })
    .optional(),
  notice: z.string().optional(),
  /** The embedding model and how many sections still rank on words alone; null when embeddings are off. */
  meaning: z.object({ model: z.string(), sectionsWithVectors: z.number(), sectionsWithoutVectors: z.number() }).nullable(),
  degraded: z.array(z.string()),
  indexedAt: z.string().nullable(),
};

export type ContextOutput = z.infer<z.ZodObject<typeof output>>;
export type ContextPassage = z.infer<typeof passage>;

export const workspaceContextTool: ToolDefinition<typeof input, typeof output> = {
  name: 'workspace_context',
  title: 'Ask the workspace',
  description: [
    "Ask a plain-language question about this workspace's services, APIs, teams, runbooks, repositories and plans when you do not yet know which entity or document holds the answer.",
    'Returns ranked passages from catalog entities, their docs (TechDocs), repository overviews, epic specs and the rules library; each carries its source path and lines, commit, the entities it belongs to, a score and why[], the published formula term by term (words 0.60 and meaning 0.40, then title, named-entity, recency and run-health bonuses).',
    'Also returns the one-hop graph neighbourhood of every entity cited. Name the service or team in the question when you know it. Follow up with workspace_expand on an entity ref to walk its dependencies.',
  ].join(' '),
  input,
  output,
  run(services: Services, args, context) {
    return logged(services, context, 'workspace_context', { question: args.question, limit: args.limit, asOf: args.asOf, sourceKinds: args.sourceKinds }, () => answerQuestion(services, args), (out) => ({ resultIds: out.passages.map((p) => p.id), empty: out.passages.length === 0 }));
  },
  unreadable: (args, notice) => ({ workspace: args.workspace, ...emptyAnswer(args.question, null), notice, degraded: ['scope-unreadable'], indexedAt: null }),
  renderText: renderContext,
};

/** An answer without passages. */
function emptyAnswer(question: string, meaning: ContextOutput['meaning']) {
  return { question, contractVersion: CONTRACT_VERSION, passages: [], neighbourhood: [], queryTerms: [], namedEntities: [], candidates: 0, meaning };
}

type Args = z.infer<z.ZodObject<typeof input>>;

async function answerQuestion(services: Services, args: Args): Promise<ContextOutput> {
  const { engine } = services;
  const limit = args.limit ?? CONTEXT_DEFAULT_LIMIT;
  if (!args.question.trim()) throw new ToolInputError('question: ask something, e.g. "who owns billing-worker?"');
  const sourceKinds = args.sourceKinds ? new Set<SourceKind>(args.sourceKinds) : undefined;
  const queryVector = await engine.embedQuery(args.question);
  const now = Date.now();
  // A store reads only the sections that can be among the passages ranked this way (a store's
  // question state holds one namespace, so no folder narrows it).
  const found = await stateForQuery(engine, args.workspace, args.asOf, args.question, queryVector, { limit, now, sourceKinds });
  const meaning = meaningSummary(engine, found.kind === 'ready' ? found.state : undefined);
  const empty = emptyAnswer(args.question, meaning);
  if (found.kind === 'cold') {
    return { workspace: found.workspace.name, ...empty, notice: 'Nothing is indexed yet; indexing has started. Ask again in a moment.', degraded: found.degraded, indexedAt: null };
  }
  const { state, workspace } = found;
  const degraded = [...found.degraded];
  const ranked = rankWorkspaceContext(state, {
    question: args.question,
    limit,
    now,
    sourceKinds,
    // The state's own folders: a store's question state holds one namespace, whatever the engine serves.
    folder: state.folders.length > 1 ? workspace.name : undefined,
    meaning: engine.meaningSource(state, queryVector),
  });
  await completePassages(engine, workspace, ranked.passages.map((p) => p.entry));
  const today = dayOf(services.now());
  const soundness = ranked.passages.some((p) => p.entry.doc.sourceKind === 'library')
    ? librarySoundness(libraryView(await wholeLibraryState(engine, workspace, state), today), services.conflictCheck ? [services.conflictCheck] : [])
    : undefined;
  const passages: ContextPassage[] = [];
  let bytes = 0;
  let droppedByBudget = 0;
  for (const p of ranked.passages) {
    const rendered = toPassage(engine, state, p, { today, soundness });
    const size = JSON.stringify(rendered).length;
    if (bytes + size > CONTEXT_BYTE_BUDGET && passages.length > 0) {
      droppedByBudget++;
      continue;
    }
    bytes += size;
    passages.push(rendered);
  }
  const capped = ranked.droppedTerms.length > 0 || droppedByBudget > 0;
  if (capped) degraded.push('candidates-capped');
  return {
    workspace: workspace.name,
    question: args.question,
    contractVersion: CONTRACT_VERSION,
    passages,
    neighbourhood: neighbourhood(state, passages),
    queryTerms: ranked.terms,
    namedEntities: ranked.named.map((n) => n.ref),
    candidates: ranked.candidates,
    ...(capped ? { candidatesCapped: { droppedTerms: ranked.droppedTerms, droppedByBudget, byteBudget: CONTEXT_BYTE_BUDGET } } : {}),
    ...heldBackOutput(ranked.heldBack),
    ...(passages.length === 0 ? { notice: 'No passage scored above the floor; try other words or name the service.' } : {}),
    meaning,
    degraded,
    indexedAt: state.indexedAt,
  };
}

function heldBackOutput(held: RankResult['heldBack']): Pick<ContextOutput, 'heldBack'> {
  if (held.length === 0) return {};
  const documents = held.map((h) => ({ documentId: shortId(h.doc.id), title: h.doc.title, path: h.doc.path, passages: h.passages, bestScore: h.bestScore }));
  return { heldBack: { perDocument: DOCUMENT_CAP, documents } };
}

function meaningSummary(engine: Engine, state: IndexState | undefined): ContextOutput['meaning'] {
  const sections = state?.counts.sections ?? 0;
  const reader = storeReaderOf(engine);
  if (reader) {
    // A store's question state counts the namespace's stored vectors; the engine holds none itself.
    const stored = state ? reader.meaningSummaryOf(state) : undefined;
    if (!stored) return null;
    return { model: stored.model, sectionsWithVectors: stored.sectionsWithVectors, sectionsWithoutVectors: Math.max(0, sections - stored.sectionsWithVectors) };
  }
  const status = engine.status().meaning;
  if (!status) return null;
  return { model: status.model, sectionsWithVectors: status.sectionsWithVectors, sectionsWithoutVectors: Math.max(0, sections - status.sectionsWithVectors) };
}

/** A ranked passage as output, with its expiry and its conflicts when it is a library page's. */
function toPassage(engine: Engine, state: IndexState, ranked: RankedPassage, library: { today: string; soundness?: LibrarySoundness }): ContextPassage {
  const { section, doc } = ranked.entry;
  const conflicts = library.soundness?.sectionConflicts(section.id) ?? [];
  const info = state.commits.get(doc.path);
  const abs = fromWorkspacePath(state.folders, doc.path)?.absPath;
  const uri = abs ? `${pathToFileURL(abs).href}#L${section.startLine}-L${section.endLine}` : `${doc.path}#L${section.startLine}-L${section.endLine}`;
  return {
    id: shortId(section.id),
    documentId: shortId(doc.id),
    title: doc.title,
    headingPath: section.headingPath,
    text: section.text,
    entityRefs: (section.entityRefs ?? doc.entityRefs).map((key) => state.graph.get(key)?.ref ?? key),
    sourceKind: doc.sourceKind,
    sourceRef: { path: doc.path, startLine: section.startLine, endLine: section.endLine },
    sourceCommit: info?.commit ?? null,
    dirty: info?.dirty ?? false,
    sourceUri: uri,
    score: ranked.score,
    why: ranked.why,
    ...(doc.library && isExpired(doc.library, library.today) ? { expired: doc.library.expires! } : {}),
    ...(conflicts.length > 0 ? { conflicts: conflicts.map((f) => conflictOutput(f, (id) => shortId(id))) } : {}),
  };
}

function neighbourhood(state: IndexState, passages: readonly ContextPassage[]): ContextOutput['neighbourhood'] {
  // Each passage's first entity before any passage's second, so a passage citing many entities
  // cannot use up the cap before the passages after it get theirs.
  const cited: string[] = [];
  const widest = Math.max(0, ...passages.map((p) => p.entityRefs.length));
  for (let i = 0; i < widest; i++) {
    for (const p of passages) {
      const ref = p.entityRefs[i]?.toLowerCase();
      if (ref && !cited.includes(ref)) cited.push(ref);
    }
  }
  return cited.slice(0, NEIGHBOURHOOD_MAX_ENTITIES).map((key) => {
    const entity = state.graph.get(key);
    // The entity's own relations: both halves of every pair are stored, so these are all of them.
    const edges = state.graph.outgoing(key);
    return {
      entity: entity?.ref ?? key,
      kind: entity?.kind ?? key.split(':')[0],
      ...(entity?.title ? { title: entity.title } : {}),
      edges: capEdges(edges, NEIGHBOURHOOD_MAX_EDGES).map((e) => ({ source: e.sourceRef, type: e.type, target: e.targetRef, resolved: e.resolved })),
      moreEdges: Math.max(0, edges.length - NEIGHBOURHOOD_MAX_EDGES),
    };
  });
}

/** ownedBy, then the other forward halves (dependsOn, partOf...), then the inverses, in Backstage's pair order. */
const EDGE_ORDER: readonly string[] = ['ownedBy', ...RELATION_PAIRS.map((p) => p.forward).filter((t) => t !== 'ownedBy'), ...RELATION_PAIRS.map((p) => p.inverse)];

/** Position of each relation type in EDGE_ORDER: a sort comparator reads it per comparison (a Group owns hundreds). */
const EDGE_RANK = new Map<string, number>();
EDGE_ORDER.forEach((type, i) => {
  if (!EDGE_RANK.has(type)) EDGE_RANK.set(type, i);
});

function edgeRank(type: string): number {
  return EDGE_RANK.get(type) ?? EDGE_ORDER.length;
}

/**
 * At most `cap` of an entity's edges, taken one of each relation type in turn (EDGE_ORDER), so
 * nine `ownerOf` edges cannot crowd out the owner, the system or the members; returned grouped by
 * type in that order, each type's edges in the graph's order.
 */
function capEdges<E extends { type: string }>(edges: readonly E[], cap: number): E[] {
  if (edges.length <= cap) return [...edges].sort((a, b) => edgeRank(a.type) - edgeRank(b.type));
  const byType = new Map<string, E[]>();
  for (const e of [...edges].sort((a, b) => edgeRank(a.type) - edgeRank(b.type))) {
    const list = byType.get(e.type);
    if (list) list.push(e);
    else byType.set(e.type, [e]);
  }
  const taken = new Map<string, number>();
  let left = cap;
  for (let round = 0; left > 0; round++) {
    let any = false;
    for (const [type, list] of byType) {
      if (left === 0) break;
      if (round < list.length) {
        taken.set(type, round + 1);
        left--;
        any = true;
      }
    }
    if (!any) break;
  }
  return [...byType].flatMap(([type, list]) => list.slice(0, taken.get(type) ?? 0));
}

/**
 * The markers a passage carries, one line each: expired (the page is past its `expires` date) and
 * every unsettled conflict with another page, with both wordings. Every host shows these lines
 * (MCP text, `wsctx ask`, the editor's results documents and hovers).
 */
export function passageMarkers(p: Pick<ContextPassage, 'expired' | 'conflicts'>): string[] {
  const lines: string[] = [];
  if (p.expired) lines.push(`EXPIRED on ${p.expired}: this library page is past its expires date and the library tools no longer serve it; do not rely on it.`);
  for (const c of p.conflicts ?? []) lines.push(`CONFLICT: "${c.with.title}" [${c.with.id}] › ${c.with.heading} (${c.with.path}:${c.with.line}) says "${c.there}", where this says "${c.here}" (${c.what}).`);
  return lines;
}

export function renderContext(out: ContextOutput): string {
  const lines: string[] = [];
  if (out.notice) lines.push(out.notice);
  out.passages.forEach((p, i) => {
    lines.push(`## ${i + 1}. ${[p.title, ...p.headingPath.filter((h) => h !== p.title)].join(' › ')}  [${p.id}]`);
    const commit = p.sourceCommit ? ` @ ${p.sourceCommit.slice(0, 12)}${p.dirty ? ' (uncommitted changes)' : ''}` : '';
    lines.push(`score ${p.score.toFixed(3)} · ${p.sourceKind} · ${p.sourceRef.path}:${p.sourceRef.startLine}-${p.sourceRef.endLine}${commit}`);
    if (p.entityRefs.length) lines.push(`entities: ${p.entityRefs.join(', ')}`);
    for (const note of passageMarkers(p)) lines.push(note);
    lines.push(`why: ${p.why.map((w) => `${w.signal} ${w.weight.toFixed(2)}×${w.raw.toFixed(2)}=${w.contribution.toFixed(3)} (${w.detail})`).join(' + ')}`);
    lines.push('', p.text.trim(), '');
  });
  if (out.neighbourhood.length) {
    lines.push('## Neighbourhood');
    for (const n of out.neighbourhood) {
      const more = n.moreEdges ? ` (+${n.moreEdges} more: use workspace_expand)` : '';
      lines.push(`- ${n.entity}${n.title ? ` (${n.title})` : ''}: ${n.edges.map((e) => `${e.source} ${e.type} ${e.target}${e.resolved ? '' : ' [unresolved]'}`).join('; ')}${more}`);
    }
  }
  if (out.heldBack) {
    const held = out.heldBack.documents.map((d) => `${d.passages} of "${d.title}" [${d.documentId}] (best ${d.bestScore.toFixed(3)})`);
    lines.push(`held back by the cap of ${out.heldBack.perDocument} passages per document: ${held.join('; ')}: open the document to read them, or ask about it by name.`);
  }
  if (out.candidatesCapped) {
    const c = out.candidatesCapped;
    const parts = [c.droppedTerms.length ? `terms not used: ${c.droppedTerms.join(', ')}` : '', c.droppedByBudget ? `${c.droppedByBudget} passages past the ${c.byteBudget}-byte budget` : ''].filter(Boolean);
    lines.push(`candidates-capped: ${parts.join('; ')}. Narrow the question.`);
  }
  const meaning = out.meaning
    ? ` · meaning ${out.meaning.model}${out.meaning.sectionsWithoutVectors ? ` (${out.meaning.sectionsWithoutVectors} sections still on words alone)` : ''}`
    : ' · embeddings off';
  lines.push(`contractVersion ${out.contractVersion} · indexedAt ${out.indexedAt ?? 'never'}${meaning}${out.degraded.length ? ` · degraded: ${out.degraded.join(', ')}` : ''}`);
  return lines.join('\n');
}
