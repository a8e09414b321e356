/**
 * `wsctx ask "<question>"`: the ranked passages as a person reads them, within `columns`
 * characters a line: a table of the passages, then each passage with its entity, owner and nearest
 * neighbours on one line (entityLine.ts), its why[] on one line (every term with `--why`) and an
 * excerpt centred on the words of the question it matched.
 * `--json` prints the tool's own structured answer instead.
 */
import { passageMarkers, type ContextOutput, type ContextPassage } from '../../tools/workspaceContext';
import { table } from '../format';
import { entityLine } from './entityLine';

/** Longest excerpt, before the line width cuts it further. */
const EXCERPT_CHARS = 240;
/** Characters kept before the first matched word, so the excerpt reads from the sentence's start. */
const EXCERPT_LEAD = 40;
const INDENT = '     ';

export interface AskRenderOptions {
  /** Every passage's why[] term by term (default: one line). */
  why?: boolean;
  /** Line width (default 100). */
  columns?: number;
}

export function renderAskTable(out: ContextOutput, options: AskRenderOptions = {}): string {
  const columns = Math.max(40, options.columns ?? 100);
  const lines: string[] = [];
  if (out.notice) lines.push(out.notice, '');
  if (out.passages.length) {
    const rows = out.passages.map((p, i) => [
      String(i + 1),
      p.score.toFixed(3),
      `${p.expired ? '[expired] ' : ''}${p.conflicts?.length ? '[conflict] ' : ''}${[p.title, ...p.headingPath.filter((h) => h !== p.title)].join(' › ')}`,
      `${p.sourceRef.path}:${p.sourceRef.startLine}-${p.sourceRef.endLine}`,
      p.sourceKind,
    ]);
    lines.push(table(fitColumns([['#', 'score', 'passage', 'source', 'kind'], ...rows], columns, [2, 3], [3]), ''));
  }
  const surfaces = [...new Set(out.queryTerms.flatMap((t) => [t.surface, t.term]).filter((w) => w.length > 1).map((w) => w.toLowerCase()))];
  out.passages.forEach((p, i) => {
    lines.push('', clip(`${i + 1}. ${p.title} [${p.id}]${p.sourceCommit ? ` @ ${p.sourceCommit.slice(0, 12)}${p.dirty ? '+dirty' : ''}` : ''}`, columns));
    const place = entityLine(p.entityRefs, out.neighbourhood);
    if (place) lines.push(clip(`${INDENT}${place}`, columns));
    // Expiry and conflicts are never clipped: the other page's wording is the point.
    for (const marker of passageMarkers(p)) lines.push(...wrapWords(marker, columns - INDENT.length).map((l) => `${INDENT}${l}`));
    if (options.why) {
      lines.push(table(p.why.map((w) => [w.signal, w.weight.toFixed(2), w.raw.toFixed(3), w.contribution.toFixed(3), w.detail]), INDENT));
      lines.push(`${INDENT}${''.padEnd(11)}score ${p.score.toFixed(3)}`);
    } else {
      lines.push(clip(`${INDENT}why: ${p.why.filter((w) => w.contribution !== 0).map((w) => `${w.signal} ${w.contribution.toFixed(3)}`).join(' + ')} = ${p.score.toFixed(3)} (--why for every term)`, columns));
    }
    lines.push(`${INDENT}"${excerpt(p, surfaces, Math.min(EXCERPT_CHARS, columns - INDENT.length - 2))}"`);
  });
  if (out.heldBack) {
    const held = out.heldBack.documents.map((d) => `${d.passages} of ${d.title} [${d.documentId}] (best ${d.bestScore.toFixed(3)})`).join('; ');
    lines.push('', ...wrapWords(`Held back by the cap of ${out.heldBack.perDocument} passages per document: ${held}.`, columns));
  }
  const meaning = out.meaning
    ? `meaning ${out.meaning.model}${out.meaning.sectionsWithoutVectors ? `, ${out.meaning.sectionsWithoutVectors} sections without vectors (run wsctx index to embed them)` : ''}`
    : 'embeddings off';
  const footer = [`contract ${out.contractVersion}`, `${out.candidates} candidates`, meaning, `indexedAt ${out.indexedAt ?? 'never'}`, ...(out.degraded.length ? [`degraded: ${out.degraded.join(', ')}`] : [])];
  lines.push('', ...wrapParts(footer, ' · ', columns));
  return lines.join('\n');
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

/**
 * Shortens the cells of the `shrinkable` columns (widest first, with an ellipsis) until every
 * row, laid out by `table` with two spaces between columns, fits `width`. Columns in `keepEnd`
 * (paths, whose end says the most) lose their start instead of their end.
 */
export function fitColumns(rows: string[][], width: number, shrinkable: readonly number[], keepEnd: readonly number[] = []): string[][] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  let excess = widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1) - width;
  while (excess > 0) {
    const widest = [...shrinkable].sort((a, b) => widths[b] - widths[a])[0];
    if (widths[widest] <= 12) break;
    widths[widest]--;
    excess--;
  }
  const cut = (cell: string, i: number) => (keepEnd.includes(i) ? `…${cell.slice(cell.length - widths[i] + 1)}` : `${cell.slice(0, widths[i] - 1)}…`);
  return rows.map((row) => row.map((cell, i) => (cell.length > widths[i] ? cut(cell, i) : cell)));
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

function clip(line: string, width: number): string {
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}
