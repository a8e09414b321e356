/**
 * `wsctx check`: every expectation of the expectations file run against the current index, one
 * row per expected (or excluded) page, and each failure explained by explain_result. A page
 * expected `within` N is explained at limit N, so the explanation says what kept it out of the
 * first N.
 */
import type { Expectation, ExpectationProblem, ExpectationsFile, ExpectedItem } from '../engine';
import type { Services } from '../services/services';
import { explain, renderExplanation, type ExplainOutput, type RenderOptions } from './explainResult';

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
  // An excluded page that came is a failure to explain, never "nothing to fix".
  const explanation = !pass && kind === 'exclude' ? excludedButCame(e, expectation.task) : e;
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
    ...(pass ? {} : { explanation }),
  };
}

/**
 * An excluded page that came: where it came and what brought it, and how to keep it out. The
 * explanation of a page that came says "nothing to fix", which is false for a page that must not.
 */
function excludedButCame(e: ExplainOutput, task: boolean): ExplainOutput {
  if (task) {
    const why: Record<string, string> = {
      rule: 'a rule page comes with every task, in full: if it should not, it is not a rule (change its type)',
      pinned: 'a pinned page comes with every task: if it should not, drop always_include from its front matter',
      recipe:
        "it is an Always page of a pack the task applied: take it out of the pack's always list, or narrow the pack's Good-for phrasings",
      use: 'its Good-for phrasings match the task: make them name only the work it is for',
      entity: 'the task names the service it documents: name another service, or drop the exclude',
    };
    return {
      ...e,
      summary: `It is in the bundle (${e.reason ?? 'search'}), and the expectation excludes it.`,
      fix: `To keep it out: ${why[e.reason ?? ''] ?? 'its sections match the task (by search, or reached from a page that did): the pages that should answer must rank above it, or the task be narrowed to words it lacks'}; if it does belong in the bundle, drop the exclude.`,
    };
  }
  const by = e.top ?? e.best;
  const words = e.best?.why.find((w) => w.signal === 'words');
  const held = words
    ? ` Its best section for the question holds ${words.detail.replace(/^[^;]*; (matched )?/, '')}.`
    : '';
  return {
    ...e,
    summary: `It comes at rank ${e.rank} of the first ${e.limit}, which the expectation excludes${by ? `, by its section "${by.headingPath.at(-1) ?? by.title}" (score ${by.score.toFixed(3)})` : ''}.${held}`,
    fix: `To keep it out of the first ${e.limit}: the pages that should answer must rank above it (expect them, and ask why-not for each), or the question must use words this page does not hold; if it does answer the question, drop the exclude.`,
  };
}

/** The report as a table grouped by question (nothing cut), then each failure with its explanation, then the file's problems. */
export function renderCheckReport(report: CheckReport, options: RenderOptions = {}): string {
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
      if (f.explanation) lines.push(renderExplanation(f.explanation, options));
    }
  }
  if (report.problems.length) {
    lines.push('', 'Problems in the file (those entries were not run):');
    for (const p of report.problems) lines.push(`  ${p.path}:${p.line}: ${p.field ? `${p.field}: ` : ''}${p.message}`);
  }
  return lines.join('\n');
}
