/**
 * The expectations file (`.wsctx/expectations.yaml`): questions a team relies on, with the pages,
 * sections or entities that must come back for each (optionally within the first N passages) and
 * those that must not. `wsctx check` runs them against the index. Parsing never throws: a bad
 * entry is a problem naming the file, the line and the field, and the other entries still run.
 *
 * ```yaml
 * expectations:
 *   - question: how do I roll back billing-worker?
 *     limit: 10                 # optional, 1-50 (default 10): the limit the question is asked with
 *     expect:
 *       - payments-platform/billing-worker/docs/runbook.md      # a path, an id or an entity ref
 *       - { page: component:default/billing-worker, within: 3 }
 *     exclude:
 *       - storefront/checkout-web/docs/rollback.md
 *   - task: write a postmortem for the checkout outage     # a get_context task instead
 *     max_tokens: 4000          # optional: the budget it is asked with (default 12,000)
 *     expect:
 *       - .context/templates/incident-postmortem.md
 * ```
 * A task's page must be in the bundle (`within` does not apply); an excluded page must not.
 */
import { isMap, isScalar, isSeq, LineCounter, type Node as YamlNode } from 'yaml';
import { parseDocumentBounded } from '../parsing/boundedYaml';

/** Where the expectations file is, relative to the first served folder. */
export const EXPECTATIONS_FILE = '.wsctx/expectations.yaml';
/** The limit a question is asked with when its entry gives none (workspace_context's default). */
export const EXPECTATION_DEFAULT_LIMIT = 10;
export const EXPECTATION_MAX_LIMIT = 50;
/**
 * Entries (questions and tasks) checked per file: 200. The editor runs them after every index
 * pass (about 1.3 ms each measured here, so 0.26 s at the cap; 3,000 took 3.9 s); the entries past
 * it are one problem at the first of them, and are not run.
 */
export const MAX_EXPECTATIONS = 200;

export interface ExpectedItem {
  /** A workspace-relative path, a document or section id, or an entity ref. */
  page: string;
  /** Must come within the first `within` passages (default: the question's limit). */
  within?: number;
  line: number;
}

export interface Expectation {
  /** The question, or the task when `task` is true. */
  question: string;
  /** True for a get_context task (the entry's `task:`). */
  task: boolean;
  /** A task's budget (`max_tokens:`), when given. */
  maxTokens?: number;
  limit: number;
  expect: ExpectedItem[];
  exclude: ExpectedItem[];
  line: number;
}

export interface ExpectationProblem {
  path: string;
  line: number;
  /** The field at fault: `expectations[2].expect[0].within`. */
  field: string;
  message: string;
}

export interface ExpectationsFile {
  path: string;
  expectations: Expectation[];
  problems: ExpectationProblem[];
}

const ENTRY_KEYS = ['question', 'task', 'limit', 'max_tokens', 'expect', 'exclude'];
const ITEM_KEYS = ['page', 'within'];

/** Parses the text of an expectations file; `file` names it in problems. */
export function parseExpectations(file: string, text: string): ExpectationsFile {
  const lineCounter = new LineCounter();
  const problems: ExpectationProblem[] = [];
  const expectations: Expectation[] = [];
  const lineOf = (node: unknown, fallback = 1) =>
    (node as YamlNode | null)?.range ? lineCounter.linePos((node as YamlNode).range![0]).line : fallback;
  const problem = (node: unknown, field: string, message: string, fallback = 1) =>
    problems.push({ path: file, line: lineOf(node, fallback), field, message });
  const doc = parseDocumentBounded(text, { lineCounter, merge: false, prettyErrors: true });
  if (doc.errors.length > 0) {
    const error = doc.errors[0];
    problems.push({
      path: file,
      line: error.linePos?.[0].line ?? 1,
      field: '',
      message: `YAML error: ${error.message.split('\n')[0]}`,
    });
    return { path: file, expectations, problems };
  }
  const root = doc.contents;
  if (!isMap(root)) {
    problem(root, '', 'expected a mapping with one key, expectations: a list of questions');
    return { path: file, expectations, problems };
  }
  let list: unknown;
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (key === 'expectations') list = pair.value;
    else problem(pair.key, key, 'unknown key; the file holds expectations: a list of questions');
  }
  if (!isSeq(list)) {
    problem(
      list ?? root,
      'expectations',
      'expected a list of questions, each with question: and expect: or exclude:',
      lineOf(root),
    );
    return { path: file, expectations, problems };
  }
  if (list.items.length > MAX_EXPECTATIONS) {
    const past = list.items.length - MAX_EXPECTATIONS;
    problem(
      list.items[MAX_EXPECTATIONS],
      `expectations[${MAX_EXPECTATIONS}]`,
      `a file may hold at most ${MAX_EXPECTATIONS} questions and tasks; this one and the ${past - 1} after it (${past} in all) are not checked`,
      lineOf(list),
    );
  }
  list.items.slice(0, MAX_EXPECTATIONS).forEach((node, i) => {
    const field = `expectations[${i}]`;
    if (!isMap(node))
      return void problem(node, field, 'expected a mapping with question: and expect: or exclude:', lineOf(list));
    const entry: Expectation = {
      question: '',
      task: false,
      limit: EXPECTATION_DEFAULT_LIMIT,
      expect: [],
      exclude: [],
      line: lineOf(node),
    };
    let ok = true;
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      const value = pair.value;
      const at = `${field}.${key}`;
      if (key === 'question' || key === 'task') {
        const text = isScalar(value) && typeof value.value === 'string' ? value.value.trim() : '';
        if (entry.question) ok = !problem(pair.key, at, 'give question or task, not both');
        else if (!text) ok = !problem(value ?? pair.key, at, `expected the ${key} as text`, lineOf(pair.key));
        else {
          entry.question = text;
          entry.task = key === 'task';
        }
      } else if (key === 'max_tokens') {
        const n = isScalar(value) ? value.value : undefined;
        if (typeof n !== 'number' || !Number.isInteger(n) || n < 1000 || n > 30000)
          ok = !problem(value ?? pair.key, at, 'expected a whole number from 1000 to 30000', lineOf(pair.key));
        else entry.maxTokens = n;
      } else if (key === 'limit') {
        const n = isScalar(value) ? value.value : undefined;
        if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > EXPECTATION_MAX_LIMIT)
          ok = !problem(
            value ?? pair.key,
            at,
            `expected a whole number from 1 to ${EXPECTATION_MAX_LIMIT}`,
            lineOf(pair.key),
          );
        else entry.limit = n;
      } else if (key === 'expect' || key === 'exclude') {
        const items = readItems(value, at, lineOf(pair.key));
        if (items) entry[key] = items;
        else ok = false;
      } else {
        ok = !problem(pair.key, at, `unknown key; an expectation holds ${ENTRY_KEYS.join(', ')}`);
      }
    }
    if (!entry.question && ok)
      ok = !problem(node, `${field}.question`, 'missing: the question to ask (or task: a get_context task)');
    if (
      ok &&
      entry.task &&
      (entry.expect.some((i) => i.within !== undefined) ||
        node.items.some((p) => isScalar(p.key) && p.key.value === 'limit'))
    )
      ok = !problem(
        node,
        `${field}.task`,
        "limit and within are workspace_context's: a task's page must be in the bundle, give max_tokens instead",
      );
    if (ok && !entry.task && entry.maxTokens !== undefined)
      ok = !problem(node, `${field}.max_tokens`, "max_tokens is get_context's: give it with task:, not question:");
    if (ok && entry.expect.length === 0 && entry.exclude.length === 0)
      ok = !problem(node, `${field}.expect`, 'missing: list the pages that must come (expect:) or must not (exclude:)');
    for (const item of entry.expect) {
      if (item.within !== undefined && item.within > entry.limit)
        ok = !problems.push({
          path: file,
          line: item.line,
          field: `${field}.expect.within`,
          message: `within ${item.within} is past the question's limit ${entry.limit}`,
        });
    }
    if (ok) expectations.push(entry);
  });
  return { path: file, expectations, problems };

  function readItems(value: unknown, field: string, line: number): ExpectedItem[] | null {
    if (!isSeq(value))
      return (
        problem(value, field, 'expected a list of pages (a path, an id or an entity ref, or { page, within })', line),
        null
      );
    const items: ExpectedItem[] = [];
    let ok = true;
    value.items.forEach((node, j) => {
      const at = `${field}[${j}]`;
      if (isScalar(node) && typeof node.value === 'string' && node.value.trim())
        return void items.push({ page: node.value.trim(), line: lineOf(node) });
      if (!isMap(node))
        return void (ok = !problem(
          node,
          at,
          'expected a page (a path, an id or an entity ref) or { page, within }',
          line,
        ));
      const item: ExpectedItem = { page: '', line: lineOf(node) };
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : '';
        const v = pair.value;
        if (key === 'page') {
          if (isScalar(v) && typeof v.value === 'string' && v.value.trim()) item.page = v.value.trim();
          else ok = !problem(v ?? pair.key, `${at}.page`, 'expected a path, an id or an entity ref', lineOf(pair.key));
        } else if (key === 'within') {
          const n = isScalar(v) ? v.value : undefined;
          if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > EXPECTATION_MAX_LIMIT)
            ok = !problem(
              v ?? pair.key,
              `${at}.within`,
              `expected a whole number from 1 to ${EXPECTATION_MAX_LIMIT}`,
              lineOf(pair.key),
            );
          else item.within = n;
        } else ok = !problem(pair.key, `${at}.${key}`, `unknown key; a page holds ${ITEM_KEYS.join(', ')}`);
      }
      if (!item.page && ok) ok = !problem(node, `${at}.page`, 'missing: the page');
      if (item.page) items.push(item);
    });
    return ok ? items : null;
  }
}
