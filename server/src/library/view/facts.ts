/**
 * The facts a library section states that can be compared deterministically: quantities (a number
 * with its unit: "14 days", "64 characters", "0.25 EUR", "41 %") and dates (`2026-02-16`), each
 * with the words of the sentence (and heading) it stands in, so two pages that say "refund ...
 * within 14 days of capture" and "refunded up to 30 days after capture" can be found to disagree.
 *
 * Statements are sentences of paragraphs and list items, and table rows (read with their header,
 * so a row's numbers keep their column's meaning). Code blocks are skipped.
 */
import { type Doc, type Section, scanMarkdown, splitLines, termSet } from '../../engine';
import { plainText, sectionHeading } from './summaries';

export interface Fact {
  /** Normalised unit: `day`, `hour`, `minute`, `second`, `week`, `month`, `year`, `percent`, `eur`, `usd`, `gbp`, `character`, `byte`, `request`, `attempt`, `date`... */
  unit: string;
  /** The value as compared: a number in canonical form, or a `YYYY-MM-DD` date. */
  value: string;
  /** The words as written ("14 days"). */
  text: string;
  /** Analysed terms of the statement and the section heading, numbers and unit words removed. */
  context: ReadonlySet<string>;
  /** The statement as written, one line. */
  statement: string;
  /** 1-based line in the file where the statement starts. */
  line: number;
  section: Section;
  doc: Doc;
}

/** Unit words and what they normalise to. */
const UNITS: Readonly<Record<string, string>> = {
  day: 'day',
  days: 'day',
  'working day': 'working-day',
  'working days': 'working-day',
  'business day': 'business-day',
  'business days': 'business-day',
  hour: 'hour',
  hours: 'hour',
  h: 'hour',
  minute: 'minute',
  minutes: 'minute',
  min: 'minute',
  mins: 'minute',
  second: 'second',
  seconds: 'second',
  s: 'second',
  sec: 'second',
  secs: 'second',
  ms: 'millisecond',
  millisecond: 'millisecond',
  milliseconds: 'millisecond',
  week: 'week',
  weeks: 'week',
  month: 'month',
  months: 'month',
  year: 'year',
  years: 'year',
  '%': 'percent',
  percent: 'percent',
  eur: 'eur',
  euro: 'eur',
  euros: 'eur',
  usd: 'usd',
  gbp: 'gbp',
  character: 'character',
  characters: 'character',
  chars: 'character',
  byte: 'byte',
  bytes: 'byte',
  kb: 'kilobyte',
  mb: 'megabyte',
  gb: 'gigabyte',
  request: 'request',
  requests: 'request',
  attempt: 'attempt',
  attempts: 'attempt',
  retry: 'retry',
  retries: 'retry',
  time: 'times',
  times: 'times',
  row: 'row',
  rows: 'row',
  item: 'item',
  items: 'item',
  merchant: 'merchant',
  merchants: 'merchant',
  subscriber: 'subscriber',
  subscribers: 'subscriber',
};

const UNIT_PATTERN = Object.keys(UNITS)
  .sort((a, b) => b.length - a.length)
  .map((u) => u.replace(/[%]/g, '\\%').replace(/ /g, '\\s+'))
  .join('|');
/** A number (not part of an identifier or a version), optional space, a unit word. */
const QUANTITY = new RegExp(
  `(?<![\\w.\\-/:+])(\\d{1,3}(?:,\\d{3})+|\\d+(?:\\.\\d+)?)\\s?(${UNIT_PATTERN})(?![\\w])`,
  'gi',
);
/** A currency before the number: "EUR 15", "€15", "$20". */
const CURRENCY_FIRST = /(?<![\w])(EUR|USD|GBP|€|\$|£)\s?(\d+(?:[.,]\d+)?)(?![\w])/g;
const DATE = /(?<![\w-])(\d{4}-\d{2}-\d{2})(?![\w-])/g;
const UNIT_TERMS = new Set([...Object.keys(UNITS)].flatMap((u) => [...termSet(u)]));

const cache = new WeakMap<Section, Fact[]>();

/** The facts of one section (cached per section object). */
export function sectionFacts(section: Section, doc: Doc): Fact[] {
  let facts = cache.get(section);
  if (!facts) {
    facts = extract(section, doc);
    cache.set(section, facts);
  }
  return facts;
}

interface Statement {
  text: string;
  line: number;
}

function extract(section: Section, doc: Doc): Fact[] {
  const heading = section.level > 0 ? sectionHeading(section, doc) : '';
  const headingTerms = termSet(heading);
  const facts: Fact[] = [];
  for (const st of statements(section)) {
    const found: { unit: string; value: string; text: string }[] = [];
    for (const m of st.text.matchAll(QUANTITY)) {
      const unit = UNITS[m[2].toLowerCase().replace(/\s+/g, ' ')];
      if (unit) found.push({ unit, value: canonicalNumber(m[1]), text: m[0] });
    }
    for (const m of st.text.matchAll(CURRENCY_FIRST)) {
      const unit = { EUR: 'eur', '€': 'eur', USD: 'usd', $: 'usd', GBP: 'gbp', '£': 'gbp' }[m[1]] ?? m[1].toLowerCase();
      found.push({ unit, value: canonicalNumber(m[2].replace(',', '.')), text: m[0] });
    }
    for (const m of st.text.matchAll(DATE)) found.push({ unit: 'date', value: m[1], text: m[0] });
    if (found.length === 0) continue;
    const context = new Set<string>(headingTerms);
    for (const t of termSet(st.text)) if (!/\d/.test(t) && !UNIT_TERMS.has(t)) context.add(t);
    for (const f of found) facts.push({ ...f, context, statement: st.text, line: st.line, section, doc });
  }
  return facts;
}

/** Sentences of paragraphs and list items, and table rows with their header, outside code. */
function statements(section: Section): Statement[] {
  const lines = splitLines(section.text);
  const { code } = scanMarkdown(lines);
  const out: Statement[] = [];
  let para: { lines: string[]; start: number } | null = null;
  let header: string[] | null = null;
  const flush = () => {
    if (!para) return;
    const text = plainText(para.lines.join(' '));
    const start = para.start;
    for (const sentence of text.split(/(?<=[.!?;])\s+(?=["'(`*]?[A-Z0-9])/))
      if (sentence.trim()) out.push({ text: sentence.trim(), line: section.startLine + start });
    para = null;
  };
  // The heading line itself is not a statement.
  const first = section.level > 0 ? (/^\s{0,3}#/.test(lines[0] ?? '') ? 1 : 2) : 0;
  for (let i = first; i < lines.length; i++) {
    const line = lines[i];
    if (code[i] || line.trim() === '') {
      flush();
      if (line.trim() === '') header = null;
      continue;
    }
    if (/^\s*\|.*\|\s*$/.test(line)) {
      flush();
      const cells = line
        .trim()
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => plainText(c.trim()));
      if (cells.every((c) => /^:?-{3,}:?$/.test(c))) continue;
      if (!header) {
        header = cells;
        continue;
      }
      const text = cells.map((c, j) => (header![j] ? `${header![j]}: ${c}` : c)).join('; ');
      out.push({ text, line: section.startLine + i });
      continue;
    }
    header = null;
    if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
      flush();
      para = { lines: [line.replace(/^\s*([-*+]|\d+[.)])\s+/, '')], start: i };
      continue;
    }
    if (!para) para = { lines: [], start: i };
    para.lines.push(line.trim());
  }
  flush();
  return out;
}

function canonicalNumber(text: string): string {
  const n = Number(text.replace(/,/g, ''));
  return Number.isFinite(n) ? String(n) : text;
}
