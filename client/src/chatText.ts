/**
 * What the `@context` chat participant says: `/why` (ranked passages with their `why[]` tables),
 * `/expand` (a graph walk with links to walk on), the prompt it gives the chat model (numbered
 * passages to cite as [n]) and which passages an answer cited. Pure; chatParticipant.ts streams it.
 *
 * Imports no `vscode`.
 */
import { markdownCode, markdownLinkTarget, markdownText } from '../../shared/markdown';
import { ClientCommands, type ExpandEntityArgs, type SearchPassage, type SearchResult } from '../../shared/protocol';
import { DIRECTION_WORDS, farEnd, parsePathLine, type ExpandView } from './pickItems';
import { splitSourceUri } from './searchItems';

/** Passages `/why` shows. Default 5. */
export const CHAT_WHY_PASSAGES = 5;
/** Passages `workspace_context` gives the model when `get_context` is not served. Default 8. */
export const CHAT_MODEL_PASSAGES = 8;
/** Characters of one passage put in the prompt. Default 4,000 (about 1,000 tokens). */
export const PROMPT_PASSAGE_CHARS = 4_000;
/** Expand links offered under a walk (and as follow-ups). Default 5. */
export const EXPAND_LINKS = 5;

/** A passage the answer may cite: numbered as the prompt numbers it. */
export interface ChatSource {
  n: number;
  label: string;
  /** Workspace-relative path and 1-based lines (a whole page: line 1, and `wholeFile`). */
  path: string;
  startLine: number;
  endLine: number;
  /** True for a page without a line range (get_context's pages). */
  wholeFile?: boolean;
  /** `file:` URI without the line fragment. */
  fileUri: string;
  text?: string;
}

// ---------------------------------------------------------------------------------------------
// Sources from tool outputs

interface PassageLike {
  title?: string;
  headingPath?: string[];
  label?: string;
  heading?: string;
  text?: string;
  body?: string;
  sourceUri?: string;
  sourceRef?: { path: string; startLine: number; endLine: number } | string;
  path?: string;
  startLine?: number;
  endLine?: number;
}

/**
 * The citable passages in a tool's structured output, numbered from `firstN`: items that carry a
 * source place (`sourceUri`, `sourceRef`, or `path` with or without `startLine`), found up to
 * four levels down, in order, without repeats: `workspace_context`'s `passages`, `get_context`'s
 * `pages`.
 */
export function sourcesFromOutput(
  output: Record<string, unknown>,
  workspaceUri: (path: string) => string | undefined,
  firstN = 1,
): ChatSource[] {
  const found: ChatSource[] = [];
  const seen = new Set<string>();
  const visit = (value: unknown, depth: number) => {
    if (depth > 4 || !value || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    const source = toSource(value as PassageLike, workspaceUri);
    if (source) {
      const key = `${source.path}:${source.startLine}`;
      if (!seen.has(key)) {
        seen.add(key);
        found.push({ ...source, n: firstN + found.length });
      }
      return;
    }
    for (const child of Object.values(value)) visit(child, depth + 1);
  };
  visit(output, 0);
  return found;
}

function toSource(
  p: PassageLike,
  workspaceUri: (path: string) => string | undefined,
): Omit<ChatSource, 'n'> | undefined {
  let place: { path: string; startLine: number; endLine: number; wholeFile?: boolean } | undefined;
  if (p.sourceRef && typeof p.sourceRef === 'object') place = p.sourceRef;
  else if (typeof p.sourceRef === 'string') {
    const parsed = parsePathLine(p.sourceRef);
    const end = /-(\d+)$/.exec(p.sourceRef);
    if (parsed) place = { path: parsed.path, startLine: parsed.line, endLine: end ? Number(end[1]) : parsed.line };
  } else if (typeof p.path === 'string' && typeof p.startLine === 'number')
    place = { path: p.path, startLine: p.startLine, endLine: p.endLine ?? p.startLine };
  else if (typeof p.path === 'string' && (p.title || p.text))
    place = { path: p.path, startLine: 1, endLine: 1, wholeFile: true };
  if (!place) return undefined;
  const fileUri = typeof p.sourceUri === 'string' ? splitSourceUri(p.sourceUri).file : workspaceUri(place.path);
  if (!fileUri) return undefined;
  const label =
    p.label ??
    ([p.title, ...(p.headingPath ?? []).filter((h) => h !== p.title)].filter(Boolean).join(' › ') ||
      p.heading ||
      place.path);
  const text = p.text ?? p.body;
  return {
    label,
    path: place.path,
    startLine: place.startLine,
    endLine: place.endLine,
    ...(place.wholeFile ? { wholeFile: true } : {}),
    fileUri,
    ...(text ? { text } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// The model's prompt and its citations

/**
 * The user message for the chat model: how to answer, the question, the numbered passages
 * (`workspace_context`), then the numbered rule and instruction pages that apply (`get_context`),
 * each with its text.
 */
export function buildPrompt(question: string, passages: ChatSource[], rules: ChatSource[] = []): string {
  const lines = [
    'Answer the question about this software workspace from the material below only: its Backstage catalog, entity docs, repository overviews, epic specs and team rules.',
    'Cite the numbered passages you rely on as [1], [2] right after the sentence that uses them. Follow the team rules when they apply.',
    'If the material does not answer the question, say so plainly and name the closest passage instead of guessing.',
    '',
    `Question: ${question}`,
    '',
  ];
  const add = (heading: string, sources: ChatSource[]) => {
    if (!sources.length) return;
    lines.push(heading, '');
    for (const s of sources) {
      lines.push(`[${s.n}] ${s.label} (${placeOf(s)})`);
      if (s.text) lines.push(clip(s.text.trim(), PROMPT_PASSAGE_CHARS));
      lines.push('');
    }
  };
  add('Passages:', passages);
  add('Team rules and instructions that apply (from get_context):', rules);
  return lines.join('\n');
}

/** `path:start-end`, or the path alone for a whole page. */
export function placeOf(source: ChatSource): string {
  return source.wholeFile ? source.path : `${source.path}:${source.startLine}-${source.endLine}`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** The sources an answer cites as `[n]` (or `[n, m]`), in order of first citation. */
export function citedSources(answer: string, sources: ChatSource[]): ChatSource[] {
  const byNumber = new Map(sources.map((s) => [s.n, s]));
  const cited: ChatSource[] = [];
  for (const match of answer.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)) {
    for (const n of match[1].split(',').map((x) => Number(x.trim()))) {
      const source = byNumber.get(n);
      if (source && !cited.includes(source)) cited.push(source);
    }
  }
  return cited;
}

// ---------------------------------------------------------------------------------------------
// /why

export interface WhyBlock {
  /** The passage's rank, label and score, ending where its source anchor goes. */
  heading: string;
  /** Its `why[]` as a table, term by term, summing to the score. */
  table: string;
  source: ChatSource;
}

export function whyHeader(result: SearchResult): string {
  const n = result.passages.length;
  const question = markdownText(result.question);
  const notice = result.notice ? markdownText(result.notice) : '';
  if (n === 0) return `No passages match "${question}".${notice ? ` ${notice}` : ''}`;
  const facts = [
    `contract ${result.contractVersion}`,
    `indexed ${result.indexedAt ?? 'never'}`,
    ...(result.degraded.length ? [`degraded: ${result.degraded.join(', ')}`] : []),
  ];
  return `The ${n} best ${n === 1 ? 'passage' : 'passages'} for "${question}", each with how its score was made (${facts.join(' · ')}).${notice ? `\n\n${notice}` : ''}`;
}

export function whyBlocks(result: SearchResult): WhyBlock[] {
  return result.passages.map((p, i) => ({
    heading: `### ${i + 1}. ${markdownText(p.label)}\n\nscore **${p.score.toFixed(3)}** · ${p.sourceKind} · `,
    table: whyTable(p),
    source: sourceOfPassage(i + 1, p),
  }));
}

function whyTable(p: SearchPassage): string {
  // Three columns, so the table stays readable in a narrow chat view.
  const lines = ['| signal | contribution = weight × raw | detail |', '| --- | ---: | --- |'];
  for (const w of p.why)
    lines.push(
      `| ${w.signal} | ${w.contribution.toFixed(3)} = ${w.weight.toFixed(2)} × ${w.raw.toFixed(3)} | ${escapeCell(w.detail)} |`,
    );
  lines.push(`| **score** | **${p.score.toFixed(3)}** | |`, '');
  return lines.join('\n');
}

export function sourceOfPassage(n: number, p: SearchPassage): ChatSource {
  const { file } = splitSourceUri(p.uri);
  return { n, label: p.label, path: p.path, startLine: p.startLine, endLine: p.endLine, fileUri: file };
}

/** A table cell: shared/markdown.ts escapes `|` and turns line breaks into spaces. */
function escapeCell(text: string): string {
  return markdownText(text);
}

// ---------------------------------------------------------------------------------------------
// /expand

export type ParsedExpand = { ok: true; args: ExpandEntityArgs } | { ok: false; error: string };

export const EXPAND_USAGE =
  'Name an entity ref: `/expand component:billing-worker`, optionally with `depth 2` (1-3) and `in`, `out` or `both`.';

/** `component:billing-worker depth 2 in` (or `depth=2`, `dependents`, `dependencies`). Default depth 1, direction out. */
export function parseExpandPrompt(prompt: string): ParsedExpand {
  const words = prompt.trim().replace(/[`'"]/g, '').split(/\s+/).filter(Boolean);
  let entityRef: string | undefined;
  let depth = 1;
  let direction: ExpandEntityArgs['direction'] = 'out';
  for (let i = 0; i < words.length; i++) {
    const word = words[i].toLowerCase();
    const depthMatch = /^(?:depth|-d|--depth)(?:=(\d+))?$/.exec(word);
    if (depthMatch) {
      const value = depthMatch[1] ?? words[++i];
      if (!/^\d+$/.test(value ?? ''))
        return { ok: false, error: `depth: expected a number from 1 to 3 after "depth". ${EXPAND_USAGE}` };
      depth = Number(value);
      continue;
    }
    const directionWord = DIRECTION_ALIASES[word.replace(/^direction=/, '')];
    if (directionWord) {
      direction = directionWord;
      continue;
    }
    if (entityRef === undefined) entityRef = words[i];
    else return { ok: false, error: `Only one entity ref, please ("${entityRef}" and "${words[i]}"). ${EXPAND_USAGE}` };
  }
  if (!entityRef) return { ok: false, error: EXPAND_USAGE };
  return { ok: true, args: { entityRef, depth, direction } };
}

const DIRECTION_ALIASES: Record<string, ExpandEntityArgs['direction']> = {
  in: 'in',
  out: 'out',
  both: 'both',
  dependents: 'in',
  dependencies: 'out',
  incoming: 'in',
  outgoing: 'out',
};

/** A command link that runs the expand command (the chat shows it as trusted markdown). */
export function expandCommandLink(label: string, args: ExpandEntityArgs): string {
  return `[${markdownText(label)}](${markdownLinkTarget(`command:${ClientCommands.expandEntity}?${encodeURIComponent(JSON.stringify([args]))}`)})`;
}

/** The walk as Markdown: the entity, then each hop's edges with where they are declared. */
export function renderExpand(out: ExpandView): string {
  if (!out.entity) return out.notice ? markdownText(out.notice) : 'Nothing to walk.';
  // Trusted Markdown (its links run the expand command): every workspace value escaped.
  const lines = [
    `**${markdownText(out.entity.ref)}**${out.entity.title ? ` (${markdownText(out.entity.title)})` : ''} · ${DIRECTION_WORDS[out.direction]} · depth ${out.depth} · ${out.edges.length} of ${out.totalEdges} edges`,
    '',
  ];
  if (out.edges.length === 0) lines.push('No edges in this direction.');
  let hop = 0;
  for (const edge of [...out.edges].sort((a, b) => a.depth - b.depth)) {
    if (edge.depth !== hop) {
      hop = edge.depth;
      lines.push(...(lines[lines.length - 1] === '' ? [] : ['']), `**${hop === 1 ? '1 hop' : `${hop} hops`}**`, '');
    }
    lines.push(
      `- ${markdownCode(edge.source)} ${markdownText(edge.type)} → ${markdownCode(edge.target)}${edge.resolved ? '' : ' (unresolved)'} · ${markdownText(edge.declaredAt)}`,
    );
  }
  if (out.candidatesCapped)
    lines.push(
      '',
      `Capped: ${out.candidatesCapped.droppedByLimit} edges over the limit of ${out.candidatesCapped.limit}.`,
    );
  if (out.degraded.length) lines.push('', `degraded: ${markdownText(out.degraded.join(', '))}`);
  const next = expandTargets(out);
  if (next.length)
    lines.push(
      '',
      `Walk on from: ${next.map((ref) => expandCommandLink(ref, { entityRef: ref, direction: out.direction, depth: 1 })).join(' · ')}`,
    );
  return lines.join('\n');
}

/** The resolved entities at the edge of the walk (first few), to walk on from. */
export function expandTargets(out: ExpandView): string[] {
  const root = out.entity?.ref;
  const refs: string[] = [];
  for (const edge of out.edges) {
    if (!edge.resolved) continue;
    const other = farEnd(edge);
    if (other !== root && !refs.includes(other)) refs.push(other);
  }
  return refs.slice(0, EXPAND_LINKS);
}
