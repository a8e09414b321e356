/**
 * The labelled questions of the example workspace (examples/fernhill-cases.yaml), shared by the
 * ranking tests and `npm run eval`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';

export interface RankingCase {
  id: string;
  question: string;
  expect: { path: string; heading?: string };
  within: number;
  kind: 'words' | 'meaning';
  sourceKind: string;
}

export const CASES_FILE = path.resolve(__dirname, '../../examples/fernhill-cases.yaml');

export function loadRankingCases(): RankingCase[] {
  return parse(fs.readFileSync(CASES_FILE, 'utf8')) as RankingCase[];
}

/** True when a passage at `path` with heading path `headings` is the case's expected one. */
export function isExpected(c: RankingCase, docPath: string, headings: readonly string[]): boolean {
  return docPath === c.expect.path && (!c.expect.heading || headings[headings.length - 1] === c.expect.heading);
}
