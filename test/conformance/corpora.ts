/**
 * What the conformance suite asks, corpus by corpus: every labelled question and task of every dev
 * corpus and of the example workspace, as the evals ask them (bench/evalDocs.ts,
 * bench/evalContext.ts, examples/fernhill-cases.yaml), each with the page it expects so
 * explain_result is asked about it too.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { contextSetFiles, loadContextTasks } from '../../bench/evalContext';
import { type DocsCorpus, docsCorpora, loadDocsQuestions, writeDocsFolders } from '../../bench/evalDocs';
import { tempDir } from '../helpers/tempWorkspace';

const ROOT = path.resolve(__dirname, '../..');

export interface ConformanceQuestion {
  question: string;
  /** The page it expects (a path or an entity ref), for explain_result. */
  expected?: string;
}

export interface ConformanceTask {
  task: string;
  args: { tags?: string[]; folder?: string; max_tokens?: number };
  /** A page it expects in the bundle (a path), for explain_result with the task. */
  expected?: string;
}

export interface ConformanceCorpus {
  key: string;
  /** The folder served (a copy for the docs corpora, as the eval serves them). */
  workspace: () => string;
  questions: ConformanceQuestion[];
  tasks: ConformanceTask[];
}

/**
 * A documentation corpus of the dev suite: its labelled questions, each with its first gold file.
 * A corpus of several repositories is served as the one folder that holds them, so its gold paths
 * (`reloader/README.md`) are the workspace's own.
 */
function docsCorpus(corpus: DocsCorpus): ConformanceCorpus {
  return {
    key: corpus.key,
    workspace: () => {
      const folders = writeDocsFolders(corpus, tempDir('conformance'));
      return corpus.folders ? path.dirname(folders[0].absPath) : folders[0].absPath;
    },
    questions: loadDocsQuestions(corpus.dir).map((q) => ({ question: q.question, expected: q.gold[0] })),
    tasks: [],
  };
}

/** A task label's page: a path, or (awesome-copilot) an instruction file's name without its extensions. */
function labelPath(workspace: string, label: string): string | undefined {
  if (label.includes('/')) return label;
  const folder = path.join(workspace, '.github', 'instructions');
  const file = fs.readdirSync(folder).find((f) => f.split('.')[0] === label);
  return file ? `.github/instructions/${file}` : undefined;
}

function contextTasks(set: 'awesome-copilot' | 'fernhill'): ConformanceTask[] {
  const files = contextSetFiles(set);
  return loadContextTasks(files.tasks).map((t) => ({
    task: t.task,
    args: t.args,
    ...(t.must[0] ? { expected: labelPath(files.workspace, t.must[0]) } : {}),
  }));
}

interface FernhillCase {
  question: string;
  expect: { path: string; heading: string };
}

/** The example workspace: its ranking cases and its get_context tasks. */
function fernhill(): ConformanceCorpus {
  const cases = parse(fs.readFileSync(path.join(ROOT, 'examples', 'fernhill-cases.yaml'), 'utf8')) as FernhillCase[];
  return {
    key: 'fernhill',
    workspace: () => contextSetFiles('fernhill').workspace,
    questions: cases.map((c) => ({
      question: c.question,
      // A catalog entity is expected by its ref, a page by its path.
      expected: /^[a-z]+:/.test(c.expect.heading) ? c.expect.heading : c.expect.path,
    })),
    tasks: contextTasks('fernhill'),
  };
}

export const CONFORMANCE_CORPORA: readonly ConformanceCorpus[] = [
  ...docsCorpora(path.join(ROOT, 'test', 'fixtures', 'argocd-docs')).map(docsCorpus),
  {
    key: 'awesome-copilot',
    workspace: () => contextSetFiles('awesome-copilot').workspace,
    questions: [],
    tasks: contextTasks('awesome-copilot'),
  },
  fernhill(),
];
