/**
 * `wsctx expand <ref>`: the graph walk as a person reads it, within `columns` characters a line:
 * the entity's facts, then one table row per edge (hop, from, relation, to, where it is declared),
 * refs without the `default` namespace. `--json` prints the tool's own answer instead; MCP's text
 * (workspaceExpand.ts renderExpand) keeps full refs for agents.
 */
import type { ExpandOutput } from '../../tools/workspaceExpand';
import { table } from '../format';
import { fitColumns } from './askCommand';
import { shortRef } from './entityLine';

export function renderExpandTable(out: ExpandOutput, columns = 100): string {
  const width = Math.max(40, columns);
  const e = out.entity;
  if (!e) return [out.notice ?? 'Nothing to walk.', out.degraded.length ? `degraded: ${out.degraded.join(', ')}` : ''].filter(Boolean).join('\n');
  const lines: string[] = [];
  lines.push(...wrap(`# ${e.ref}${e.title ? ` (${e.title})` : ''}`, width));
  const facts = [e.type && `type ${e.type}`, e.lifecycle && `lifecycle ${e.lifecycle}`, e.owner && `owner ${e.owner}`].filter(Boolean);
  if (facts.length) lines.push(...wrap(facts.join(', '), width));
  if (e.description) lines.push(...wrap(e.description, width));
  lines.push('');
  const filter = out.edgeTypes ? `, edge types ${out.edgeTypes.join(', ')}` : '';
  lines.push(...wrap(`Walk: depth ${out.depth}, direction ${out.direction}${filter}; ${out.edges.length} of ${out.totalEdges} edges.`, width));
  if (out.edges.length === 0) lines.push('  (no edges)');
  else {
    const rows = out.edges.map((edge) => [String(edge.depth), shortRef(edge.source), edge.type, `${shortRef(edge.target)}${edge.resolved ? '' : ' [unresolved]'}`, edge.declaredAt]);
    // Two columns of indent from `table`: the rows get the width less those.
    lines.push(table(fitColumns([['hop', 'from', 'relation', 'to', 'declared at'], ...rows], width - 2, [1, 3, 4], [4]), '  '));
  }
  if (out.candidatesCapped) {
    const c = out.candidatesCapped;
    lines.push(...wrap(`candidates-capped: ${c.droppedByLimit} edges over the limit of ${c.limit}, ${c.droppedByBudget} over the ${c.byteBudget}-byte budget. Narrow with --edge-types or --direction.`, width));
  }
  if (out.degraded.length) lines.push(...wrap(`degraded: ${out.degraded.join(', ')}`, width));
  lines.push(`indexedAt: ${out.indexedAt ?? 'never'}`);
  return lines.join('\n');
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
