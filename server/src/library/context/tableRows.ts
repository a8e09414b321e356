/**
 * Rows of a table (docs/ARCHITECTURE.md, get_context's contract, step 7): a row is a few facts, not a passage someone "uses", so only
 * the second question counts for it: a row about a different plan, region, product, competitor,
 * market or audience than the task names is dropped; otherwise the section's closeness decides.
 *
 * Without the judge, a row is about something else when the task names one of the values in the
 * table's first column (a plan, a region, a code) and the row's first cell is another one, or
 * when the row holds a library name of a kind the task names a different one of. The judge sees
 * each row with the table's description (page summary, section heading, header row).
 */
import { type Doc, type Section, normalizeName } from '../../engine';
import { documentSummary, sectionBody, sectionHeading } from '../view/summaries';
import type { NameDictionary } from '../models/nameDictionary';
import type { PlanName } from '../models/heuristicPlan';

export interface TableRow {
  /** 0-based index among the table's data rows. */
  index: number;
  /** 0-based line within the section body. */
  line: number;
  text: string;
  cells: string[];
  /** The first cell's values (`lost_card`, `stolen_card` from "`lost_card`, `stolen_card`"), normalised. */
  keys: string[];
}

export interface SectionTable {
  /** Lines of the section body. */
  lines: string[];
  headerLine: number;
  header: string[];
  rows: TableRow[];
}

/** A table needs at least this many data rows for its rows to be judged one by one. Default 2. */
export const MIN_TABLE_ROWS = 2;

const cache = new WeakMap<Section, SectionTable | null>();

/** The first table of a section's body, or null when it has none (or too few rows). */
export function sectionTable(section: Section): SectionTable | null {
  let table = cache.get(section);
  if (table === undefined) {
    table = parseTable(sectionBody(section));
    cache.set(section, table);
  }
  return table;
}

function parseTable(body: string): SectionTable | null {
  const lines = body.split('\n');
  let fence = false;
  for (let i = 0; i + 1 < lines.length; i++) {
    if (/^\s{0,3}(`{3,}|~{3,})/.test(lines[i])) fence = !fence;
    if (fence || !isRow(lines[i]) || !/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(lines[i + 1])) continue;
    const rows: TableRow[] = [];
    for (let j = i + 2; j < lines.length && isRow(lines[j]); j++) {
      const cells = cellsOf(lines[j]);
      rows.push({ index: rows.length, line: j, text: lines[j], cells, keys: keysOf(cells[0] ?? '') });
    }
    if (rows.length < MIN_TABLE_ROWS) return null;
    return { lines, headerLine: i, header: cellsOf(lines[i]), rows };
  }
  return null;
}

function isRow(line: string): boolean {
  return /^\s*\|.*\|\s*$/.test(line);
}

function cellsOf(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
}

function keysOf(cell: string): string[] {
  return cell
    .split(/,|\/| or /)
    .map((part) => normalizeName(part.replace(/[`*_]/g, '').replace(/\(.*?\)/g, '')))
    .filter((k) => k.length >= 2);
}

/** What the judge is shown about the table a row belongs to. */
export function tableDescription(doc: Doc, section: Section, table: SectionTable): string {
  return `Table "${sectionHeading(section, doc)}" in the page "${doc.title}" (${documentSummary(doc)}). Columns: ${table.header.join(' | ')}`;
}

/**
 * The heuristic's answer to "is this row about a different ... than the task names?" for every
 * row: true means drop.
 */
export function rowsAboutOtherNames(
  table: SectionTable,
  task: string,
  names: readonly PlanName[],
  dictionary: NameDictionary,
): boolean[] {
  const taskText = ` ${normalizeName(task)} `;
  const named = (key: string) => taskText.includes(` ${key} `);
  const anyNamed = table.rows.some((r) => r.keys.some(named));
  const taskKinds = new Map<string, Set<string>>();
  for (const n of names) {
    if (n.source === 'catalog') continue;
    let set = taskKinds.get(n.kind);
    if (!set) taskKinds.set(n.kind, (set = new Set()));
    set.add(n.key);
  }
  return table.rows.map((row) => {
    if (anyNamed && !row.keys.some(named)) return true;
    for (const mention of dictionary.find(row.text)) {
      if (mention.entry.source !== 'library') continue;
      const wanted = taskKinds.get(mention.entry.kind);
      if (wanted && !wanted.has(mention.entry.key)) return true;
    }
    return false;
  });
}

/** The section body with only the kept rows of its table. */
export function bodyWithRows(section: Section, kept: readonly number[]): string {
  const table = sectionTable(section);
  if (!table) return sectionBody(section);
  const keep = new Set(kept);
  const dropLines = new Set(table.rows.filter((r) => !keep.has(r.index)).map((r) => r.line));
  return table.lines.filter((_, i) => !dropLines.has(i)).join('\n');
}
