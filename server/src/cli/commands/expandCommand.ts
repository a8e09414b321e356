/**
 * `wsctx expand <ref>`: the graph walk as a person reads it, within `columns` characters a line:
 * the entity's facts, then one table row per edge (hop, from, relation, to, where it is declared),
 * refs without the `default` namespace, or each edge on its own lines where the table would not
 * fit: nothing is cut, neither a ref nor a path. `--json` prints the tool's own answer instead; MCP's text
 * (workspaceExpand.ts renderExpand) keeps full refs for agents.
 */
import type { ExpandOutput } from '../../tools/workspaceExpand';
import { table } from '../format';
import { shortRef } from './entityLine';

export function renderExpandTable(out: ExpandOutput, columns = 100): string {
  const width = Math.max(40, columns);
  const e = out.entity;
  if (!e)
    return [out.notice ?? 'Nothing to walk.', out.degraded.length ? `degraded: ${out.degraded.join(', ')}` : '']
      .filter(Boolean)
      .join('\n');
  const lines: string[] = [];
  lines.push(...wrap(`# ${e.ref}${e.title ? ` (${e.title})` : ''}`, width));
  const facts = [
    e.type && `type ${e.type}`,
    e.lifecycle && `lifecycle ${e.lifecycle}`,
    e.owner && `owner ${e.owner}`,
  ].filter(Boolean);
  if (facts.length) lines.push(...wrap(facts.join(', '), width));
  if (e.description) lines.push(...wrap(e.description, width));
  lines.push('');
  const filter = out.edgeTypes ? `, edge types ${out.edgeTypes.join(', ')}` : '';
  lines.push(
    ...wrap(
      `Walk: depth ${out.depth}, direction ${out.direction}${filter}; ${out.edges.length} of ${out.totalEdges} edges.`,
      width,
    ),
  );
  if (out.edges.length === 0) lines.push('  (no edges)');
  else lines.push(...edgeLines(out.edges, width));
  if (out.candidatesCapped) {
    const c = out.candidatesCapped;
    lines.push(
      ...wrap(
        `candidates-capped: ${c.droppedByLimit} edges over the limit of ${c.limit}, ${c.droppedByBudget} over the ${c.byteBudget}-byte budget. Narrow with --edge-types or --direction.`,
        width,
      ),
    );
  }
  if (out.degraded.length) lines.push(...wrap(`degraded: ${out.degraded.join(', ')}`, width));
  lines.push(`indexedAt: ${out.indexedAt ?? 'never'}`);
  return lines.join('\n');
}

/**
 * The edges as a table (hop, from, relation, to, declared at) when it fits `width` whole; else
 * the same table without its last column and each edge's declaration beneath it; else (the refs
 * alone do not fit) each edge on its own lines, `hop from relation to` wrapped between the refs
 * and `declared at` beneath. Nothing is ever cut: not a ref, not a path.
 */
function edgeLines(edges: ExpandOutput['edges'], width: number): string[] {
  const rows = edges.map((edge) => [
    String(edge.depth),
    shortRef(edge.source),
    edge.type,
    `${shortRef(edge.target)}${edge.resolved ? '' : ' [unresolved]'}`,
    edge.declaredAt,
  ]);
  const all = [['hop', 'from', 'relation', 'to', 'declared at'], ...rows];
  const fits = (lines: readonly string[]) => lines.every((l) => l.length <= width);
  const whole = table(all, '  ').split('\n');
  if (fits(whole)) return whole;
  const refs = table(
    all.map((r) => r.slice(0, 4)),
    '  ',
  ).split('\n');
  const indent = ' '.repeat(2 + all.reduce((w, r) => Math.max(w, r[0].length), 0) + 2);
  if (fits(refs))
    return refs.flatMap((line, i) => (i === 0 ? [line] : [line, `${indent}declared at ${rows[i - 1][4]}`]));
  const lines: string[] = [];
  for (const [hop, from, type, to, at] of rows) {
    const [first, ...rest] = wrap(`${from} ${type} ${to}`, width - 5);
    lines.push(`  ${hop.padEnd(3)}${first}`, ...rest.map((l) => `     ${l}`), `     declared at ${at}`);
  }
  return lines;
}

/** `text` broken at spaces into lines of at most `width` characters (a longer word stands alone). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}
