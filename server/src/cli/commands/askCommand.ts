/**
 * `wsctx ask "<question>"`: the ranked passages as a person reads them, within `columns`
 * characters a line, in the tool's order (which is score order): each passage's rank, score and
 * heading path (wrapped, never cut), its whole `path:lines` with kind and id, its `file:` link, its
 * entity with owner and nearest neighbours (entityLine.ts), its why[] (every term with `--why`)
 * and an excerpt centred on the words of the question it matched. Long values wrap at their
 * separators; only the excerpt is shortened (it is one). `--json` prints the tool's own answer.
 */
import { passageMarkers, type ContextOutput, type ContextPassage } from '../../tools/workspaceContext';
import { entityParts, shortRef } from './entityLine';

/** Longest excerpt, before the line width cuts it further. */
const EXCERPT_CHARS = 240;
/** Characters kept before the first matched word, so the excerpt reads from the sentence's start. */
const EXCERPT_LEAD = 40;
const INDENT = '     ';
/** Lines a passage's entities may take: the rest is counted (a README of 600 entities is 5 lines of text). */
export const ENTITY_LINES = 3;

export interface AskRenderOptions {
  /** Every passage's why[] term by term (default: one line). */
  why?: boolean;
  /** Line width (default 100). */
  columns?: number;
}

export function renderAskTable(out: ContextOutput, options: AskRenderOptions = {}): string {
  const columns = Math.max(40, options.columns ?? 100);
  const body = columns - INDENT.length;
  const lines: string[] = [];
  if (out.notice) lines.push(...wrapWords(out.notice, columns), '');
  const surfaces = [
    ...new Set(
      out.queryTerms
        .flatMap((t) => [t.surface, t.term])
        .filter((w) => w.length > 1)
        .map((w) => w.toLowerCase()),
    ),
  ];
  const manyFolders = out.folders.length > 1;
  out.passages.forEach((p, i) => {
    if (i > 0) lines.push('');
    // The heading path is never cut: it wraps, and its last words are often the answer's name.
    const markers = `${p.expired ? '[expired] ' : ''}${p.conflicts?.length ? '[conflict] ' : ''}`;
    const heading = [p.title, ...p.headingPath.filter((h) => h !== p.title)].join(' › ');
    lines.push(...hanging(`${i + 1}. ${p.score.toFixed(3)}  ${markers}${heading}`, columns, INDENT));
    // The whole path:lines, always: a path wider than the line gets a line of its own, uncut.
    const commit = p.sourceCommit ? ` @ ${p.sourceCommit.slice(0, 12)}${p.dirty ? '+dirty' : ''}` : '';
    const where = [
      `${p.sourceRef.path}:${p.sourceRef.startLine}-${p.sourceRef.endLine}`,
      p.sourceKind,
      ...(manyFolders ? [`folder ${p.folder}`] : []),
      `[${p.id}]${commit}`,
    ];
    lines.push(...wrapParts(where, ' · ', body).map((l) => `${INDENT}${l}`));
    lines.push(`${INDENT}${p.sourceUri}`);
    const place = entityParts(p.entityRefs, out.neighbourhood);
    const uncited = (p.entityRefsTotal ?? p.entityRefs.length) - p.entityRefs.length;
    if (place.parts.length)
      lines.push(...fitParts(place, uncited, body, ENTITY_LINES, p.entityRefs).map((l) => `${INDENT}${l}`));
    // Expiry and conflicts are never clipped: the other page's wording is the point.
    for (const marker of passageMarkers(p)) lines.push(...wrapWords(marker, body).map((l) => `${INDENT}${l}`));
    if (options.why) {
      lines.push(...whyTable(p.why, body).map((l) => `${INDENT}${l}`));
      lines.push(`${INDENT}${''.padEnd(11)}score ${p.score.toFixed(3)}`);
    } else {
      const terms = p.why.filter((w) => w.contribution !== 0).map((w) => `${w.signal} ${w.contribution.toFixed(3)}`);
      const parts = ['why:', ...terms.flatMap((t, n) => (n === 0 ? [t] : [`+ ${t}`])), `= ${p.score.toFixed(3)}`];
      lines.push(...wrapParts(parts, ' ', body).map((l) => `${INDENT}${l}`));
    }
    lines.push(`${INDENT}"${excerpt(p, surfaces, Math.min(EXCERPT_CHARS, body - 2))}"`);
  });
  if (out.heldBack) {
    const held = out.heldBack.documents
      .map((d) => `${d.passages} of ${d.title} [${d.documentId}] (best ${d.bestScore.toFixed(3)})`)
      .join('; ');
    lines.push(
      '',
      ...wrapWords(`Held back by the cap of ${out.heldBack.perDocument} passages per document: ${held}.`, columns),
    );
  }
  const meaning = out.meaning
    ? `meaning ${out.meaning.model}${out.meaning.sectionsWithoutVectors ? `, ${out.meaning.sectionsWithoutVectors} sections without vectors (run wsctx index to embed them)` : ''}`
    : 'embeddings off';
  const footer = [
    `contract ${out.contractVersion}`,
    `${out.candidates} candidates`,
    meaning,
    `indexedAt ${out.indexedAt ?? 'never'}`,
    ...(out.degraded.length ? [`degraded: ${out.degraded.join(', ')}`] : []),
    ...(options.why || out.passages.length === 0 ? [] : ['--why for every term']),
  ];
  lines.push('', ...wrapParts(footer, ' · ', columns));
  return lines.join('\n');
}

/**
 * `why[]` term by term as a table that fits `width`: signal, weight, raw value, contribution, and
 * the detail wrapped under its own column (never cut: it names the matched terms).
 */
function whyTable(why: ContextPassage['why'], width: number): string[] {
  const rows = why.map((w) => [w.signal, w.weight.toFixed(2), w.raw.toFixed(3), w.contribution.toFixed(3)]);
  const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => r[c].length)));
  const detailAt = widths.reduce((a, b) => a + b, 0) + 2 * 4;
  const room = Math.max(20, width - detailAt);
  const lines: string[] = [];
  why.forEach((w, n) => {
    const head = rows[n].map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
    const detail = wrapWords(w.detail, room);
    lines.push(`${head}  ${detail[0]}`.trimEnd(), ...detail.slice(1).map((d) => `${' '.repeat(detailAt)}${d}`));
  });
  return lines;
}

/** `text` broken at spaces into lines of `width`, the lines after the first indented by `indent`. */
function hanging(text: string, width: number, indent: string): string[] {
  const [first, ...rest] = wrapWords(text, width);
  return [first, ...(rest.length ? wrapWords(rest.join(' '), width - indent.length).map((l) => `${indent}${l}`) : [])];
}

/**
 * The entity line's parts wrapped to `width` in at most `maxLines` lines: as many parts as fit,
 * then how many more there are (`+606 more entities`; for one entity, its relations left out).
 * `uncited`: entities the answer counted but did not list (`entityRefsTotal`).
 */
function fitParts(
  place: { parts: string[]; separator: string },
  uncited: number,
  width: number,
  maxLines: number,
  refs: readonly string[],
): string[] {
  const several = refs.length > 1 || uncited > 0;
  for (let shown = place.parts.length; shown >= 1; shown--) {
    const hidden = several ? place.parts.length - shown + uncited : place.parts.length - shown;
    const more = several ? `+${hidden} more entities` : `+${hidden} more (wsctx expand ${shortRef(refs[0] ?? '')})`;
    const lines = wrapParts(hidden > 0 ? [...place.parts.slice(0, shown), more] : place.parts, place.separator, width);
    if (lines.length <= maxLines || shown === 1) return lines.slice(0, maxLines);
  }
  return [];
}

/** `parts` joined by `separator`, a new line started wherever the next part would pass `width`. */
function wrapParts(parts: readonly string[], separator: string, width: number): string[] {
  const lines: string[] = [];
  for (const part of parts) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + separator.length + part.length <= width) lines[last] += separator + part;
    else lines.push(part);
  }
  return lines;
}

/**
 * The passage's text on one line, `width` characters at most, starting a little before the
 * stretch where the question's words are densest (the answer is usually there, not at the top).
 */
export function excerpt(p: Pick<ContextPassage, 'text'>, words: readonly string[], width: number): string {
  const text = p.text.replace(/\s+/g, ' ').trim();
  if (text.length <= width) return text;
  const lower = text.toLowerCase();
  const hits: number[] = [];
  for (const word of words) for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) hits.push(at);
  hits.sort((a, b) => a - b);
  let best = 0;
  let bestCount = 0;
  for (const start of hits) {
    const count = hits.filter((h) => h >= start && h < start + width - EXCERPT_LEAD).length;
    if (count > bestCount) [best, bestCount] = [start, count];
  }
  let from = bestCount ? Math.max(0, best - EXCERPT_LEAD) : 0;
  from = Math.min(from, text.length - (width - 1));
  const space = from > 0 ? text.indexOf(' ', from) : 0;
  if (space > 0 && space < best) from = space + 1;
  const lead = from > 0 ? '…' : '';
  const room = width - lead.length - 1;
  const body = text.slice(from, from + room);
  return `${lead}${body}${from + room < text.length ? '…' : ''}`;
}

/** `text` broken at spaces into lines of at most `width` characters (a longer word keeps its own line). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}
