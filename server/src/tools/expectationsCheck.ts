/**
 * `wsctx check`: every expectation of the expectations file run against the current index, one
 * row per expected (or excluded) page, and each failure explained by explain_result. A page
 * expected `within` N is explained at limit N, so the explanation says what kept it out of the
 * first N.
 */
import type { Expectation, ExpectationProblem, ExpectationsFile, ExpectedItem } from '../engine';
import type { Services } from '../services/services';
import { explain, renderExplanation, type ExplainOutput } from './explainResult';

export interface CheckRow {
  question: string;
  page: string;
  /** `expect` (must come within `within`) or `exclude` (must not come within the limit). */
  kind: 'expect' | 'exclude';
  /** True when `question` is a get_context task (within does not apply: in the bundle or not). */
  task: boolean;
  within: number;
  /** The page's rank when it came, else its standing (below-floor, not-indexed...). */
  got: string;
  pass: boolean;
  line: number;
  /** For a failure: the explanation (an excluded page that came: where it stands). */
  explanation?: ExplainOutput;
}

export interface CheckReport {
  file: string;
  rows: CheckRow[];
  passed: number;
  failed: number;
  problems: ExpectationProblem[];
}

export async function runExpectations(services: Services, file: ExpectationsFile): Promise<CheckReport> {
  const rows: CheckRow[] = [];
  for (const expectation of file.expectations) {
    for (const item of expectation.expect) rows.push(await checkItem(services, expectation, item, 'expect'));
    for (const item of expectation.exclude) rows.push(await checkItem(services, expectation, item, 'exclude'));
  }
  const failed = rows.filter((r) => !r.pass).length;
  return { file: file.path, rows, passed: rows.length - failed, failed, problems: file.problems };
}

async function checkItem(
  services: Services,
  expectation: Expectation,
  item: ExpectedItem,
  kind: 'expect' | 'exclude',
): Promise<CheckRow> {
  const within = kind === 'expect' ? (item.within ?? expectation.limit) : expectation.limit;
  const e = expectation.task
    ? await explain(services, { task: expectation.question, expected: item.page, max_tokens: expectation.maxTokens })
    : await explain(services, { question: expectation.question, expected: item.page, limit: within });
  const came = e.standing === 'returned';
  const pass = kind === 'expect' ? came : !came;
  const got = expectation.task
    ? came
      ? `in the bundle (${e.reason})`
      : `${e.standing}${e.reason ? ` (${e.reason})` : ''}`
    : e.rank !== null
      ? `rank ${e.rank}`
      : e.standing === 'not-indexed'
        ? `not indexed (${e.reason})`
        : e.standing;
  return {
    question: expectation.question,
    task: expectation.task,
    page: item.page,
    kind,
    within,
    got,
    pass,
    line: item.line,
    ...(pass ? {} : { explanation: e }),
  };
}

/** The report as a table grouped by question (nothing cut), then each failure with its explanation, then the file's problems. */
export function renderCheckReport(report: CheckReport): string {
  const lines: string[] = [
    `${report.file}: ${report.rows.length} checks, ${report.passed} passed, ${report.failed} failed`,
  ];
  const cells = report.rows.map((r) => [
    r.pass ? 'ok' : 'FAIL',
    r.task
      ? r.kind === 'expect'
        ? 'in bundle'
        : 'not in bundle'
      : r.kind === 'expect'
        ? `top ${r.within}`
        : `not in ${r.within}`,
    r.got,
    r.page,
  ]);
  const widths = [0, 1, 2].map((i) => Math.max(...cells.map((c) => c[i].length)));
  let question: string | undefined;
  report.rows.forEach((r, i) => {
    if (r.question !== question) lines.push('', `${r.task ? 'task: ' : ''}${(question = r.question)}`);
    lines.push(`  ${cells[i].map((v, j) => (j < 3 ? v.padEnd(widths[j]) : v)).join('  ')}`);
  });
  const failures = report.rows.filter((r) => !r.pass);
  if (failures.length) {
    lines.push('', 'Failures:');
    for (const f of failures) {
      const want = f.task
        ? f.kind === 'expect'
          ? `expects ${f.page} in the bundle`
          : `excludes ${f.page} from the bundle`
        : f.kind === 'expect'
          ? `expects ${f.page} within ${f.within}`
          : `excludes ${f.page} from the first ${f.within}`;
      lines.push('', `${report.file}:${f.line}: ${f.task ? 'task ' : ''}"${f.question}" ${want}`);
      if (f.explanation) lines.push(renderExplanation(f.explanation));
    }
  }
  if (report.problems.length) {
    lines.push('', 'Problems in the file (those entries were not run):');
    for (const p of report.problems) lines.push(`  ${p.path}:${p.line}: ${p.field ? `${p.field}: ` : ''}${p.message}`);
  }
  return lines.join('\n');
}
