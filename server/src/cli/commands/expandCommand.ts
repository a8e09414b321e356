/**
 * `wsctx expand <ref>`: the graph walk as a person reads it, within `columns` characters a line:
 * the entity's facts, then one table row per edge (hop, from, relation, to, where it is declared),
 * refs without the `default` namespace, or each edge on its own lines where the table would not
 * fit: a ref is never cut, only a declaration path's middle. `--json` prints the tool's own answer instead; MCP's text
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

/** Narrowest a declaration path is shortened to (in its middle) before the table gives way. */
const MIN_PATH = 24;

/**
 * The edges as a table (hop, from, relation, to, declared at) when it fits `width` with the
 * declaration paths shortened in their middle at most; else each edge on its own lines, `hop from
 * relation to` wrapped between the refs and `declared at` beneath: a ref is never cut.
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
  const widths = [0, 1, 2, 3].map((c) => Math.max(...all.map((r) => r[c].length)));
  // Two columns of indent, then the cells two apart.
  const pathRoom = width - 2 - widths.reduce((a, b) => a + b, 0) - 2 * 4;
  if (pathRoom >= Math.min(MIN_PATH, Math.max(...all.map((r) => r[4].length)))) {
    return table(
      all.map((r) => [...r.slice(0, 4), shortenMiddle(r[4], pathRoom)]),
      '  ',
    ).split('\n');
  }
  const lines: string[] = [];
  for (const [hop, from, type, to, at] of rows) {
    const [first, ...rest] = wrap(`${from} ${type} ${to}`, width - 5);
    lines.push(`  ${hop.padEnd(3)}${first}`, ...rest.map((l) => `     ${l}`), `     declared at ${at}`);
  }
  return lines;
}

/** A path no longer than `width`, its middle folders replaced by `…` (the file name and line kept). */
export function shortenMiddle(path: string, width: number): string {
  if (path.length <= width) return path;
  const slash = path.lastIndexOf('/');
  const tail = path.slice(slash);
  if (slash < 0 || tail.length + 2 > width) return `…${path.slice(path.length - width + 1)}`;
  return `${path.slice(0, width - tail.length - 1)}…${tail}`;
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
