/**
 * Eval dataset `change`: does `get_context` hand a change's reviewer what they need? The 56
 * labelled changes of bench/corpora/changes (26 commits of RoadieHQ/roadie-backstage-plugins, 14
 * of AxisCommunications/backstage-plugins, 16 made on the example workspace; README.md there has
 * the labelling rules) are each sent to the real `get_context` tool (the handler every host
 * calls) with no task, as their diff (or, without a diff file, their changed paths), in JSON.
 *
 * The answer's items are read from its `changes` part, by kind: `owns` (the owning entities),
 * `owners` (their owners), `dependents`, `pages` (runbooks and docs), `rules` (rule-applies),
 * `epics`, `expectations`. Item precision: of the items sent, the share the labels need (items
 * labelled `ok` count neither way); recall: of the needed items, the share sent; both summed over
 * every change (micro), per corpus and per kind, with every miss and every unwanted item listed.
 *
 * The public repositories are copied into temporary git repositories whose `origin` is their
 * GitHub address, as a checkout would be, so their `url:` annotations read as they do there.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { createServices, type Services } from '../server/src/services/services';
import { callTool } from '../server/src/tools/callTool';
import { getContextTool, type GetContextOutput } from '../server/src/tools/getContext';
import { startEvalEngine } from './evalEngine';

const REPO_ROOT = path.resolve(__dirname, '..');
const DATA = path.join(REPO_ROOT, 'bench', 'corpora', 'changes');

export const CHANGE_KINDS = ['owns', 'owners', 'dependents', 'pages', 'rules', 'epics', 'expectations'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
type Labels = Partial<Record<ChangeKind, string[]>>;

export interface LabelledChange {
  id: string;
  corpus: string;
  subject: string;
  diff?: string;
  paths: string[];
  need: Labels;
  ok: Labels;
  mustNot: Labels;
}

export interface Counts {
  sent: number;
  /** Sent and needed. */
  hit: number;
  /** Needed. */
  need: number;
  /** Sent, labelled ok (left out of precision). */
  ok: number;
}

export interface ChangeResult {
  id: string;
  corpus: string;
  subject: string;
  input: 'diff' | 'changedPaths';
  files: number;
  tokens: number;
  counts: Record<ChangeKind, Counts>;
  /** Needed and not sent, as `kind: item`. */
  missed: string[];
  /** Sent, neither needed nor ok, as `kind: item` (`!` before a must-not). */
  unwanted: string[];
  /** Pages (runbooks, docs, rules, epics) the answer named but did not send whole (the budget). */
  notWhole: number;
  /** Characters of the MCP response (text + structured content) per token of max_tokens, the larger of the JSON and Markdown formats. */
  charsPerToken: number;
}

export interface ChangeFigures {
  changes: number;
  precision: number;
  recall: number;
  byKind: Record<ChangeKind, { precision: number | null; recall: number | null; sent: number; need: number }>;
}

export interface ChangeEval {
  corpora: { corpus: string; figures: ChangeFigures }[];
  overall: ChangeFigures;
  results: ChangeResult[];
  maxCharsPerToken: number;
}

/** The labelled changes of changes.yaml. */
export function loadChanges(): LabelledChange[] {
  const data = parse(readFileSync(path.join(DATA, 'changes.yaml'), 'utf8')) as { changes: Record<string, unknown>[] };
  return data.changes.map((c) => ({
    id: String(c.id),
    corpus: String(c.corpus),
    subject: String(c.subject),
    ...(typeof c.diff === 'string' ? { diff: c.diff } : {}),
    paths: (c.paths as string[]).map(String),
    need: (c.need ?? {}) as Labels,
    ok: (c.ok ?? {}) as Labels,
    mustNot: (c.mustNot ?? {}) as Labels,
  }));
}

/** A public repository's snapshot as a checkout: a git repository whose origin is its GitHub address. */
function checkout(from: string, name: string, origin: string, into: string): string {
  const dir = path.join(into, name);
  cpSync(from, dir, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('remote', 'add', 'origin', origin);
  git('add', '-A');
  git('-c', 'user.name=eval', '-c', 'user.email=eval@example.com', 'commit', '-q', '-m', 'snapshot');
  return dir;
}

/** The items of an answer, by kind, lower-cased. */
export function answerItems(out: GetContextOutput): Record<ChangeKind, Set<string>> {
  const c = out.changes;
  const items = Object.fromEntries(CHANGE_KINDS.map((k) => [k, new Set<string>()])) as Record<ChangeKind, Set<string>>;
  if (!c) return items;
  for (const e of c.entities) {
    items.owns.add(e.ref.toLowerCase());
    if (e.owner) items.owners.add(e.owner.toLowerCase());
  }
  for (const d of c.dependents) items.dependents.add(d.ref.toLowerCase());
  for (const i of c.items) {
    if (!i.path) continue;
    if (i.reason === 'runbook' || i.reason === 'doc') items.pages.add(i.path);
    else if (i.reason === 'rule-applies') items.rules.add(i.path);
    else if (i.reason === 'epic') items.epics.add(i.path);
  }
  for (const e of c.expectations) items.expectations.add(e.question);
  return items;
}

export function scoreChange(change: LabelledChange, items: Record<ChangeKind, Set<string>>) {
  const norm = (kind: ChangeKind, v: string) =>
    kind === 'owns' || kind === 'owners' || kind === 'dependents' ? v.toLowerCase() : v;
  const counts = {} as Record<ChangeKind, Counts>;
  const missed: string[] = [];
  const unwanted: string[] = [];
  for (const kind of CHANGE_KINDS) {
    const need = new Set((change.need[kind] ?? []).map((v) => norm(kind, v)));
    const okList = (change.ok[kind] ?? []).map((v) => norm(kind, v));
    const okAll = okList.includes('*');
    const ok = new Set(okList);
    const mustNot = new Set((change.mustNot[kind] ?? []).map((v) => norm(kind, v)));
    const sent = [...items[kind]];
    const c: Counts = { sent: 0, hit: 0, need: need.size, ok: 0 };
    for (const item of sent) {
      if (need.has(item)) {
        c.sent++;
        c.hit++;
      } else if (okAll || ok.has(item)) c.ok++;
      else {
        c.sent++;
        unwanted.push(`${mustNot.has(item) ? '!' : ''}${kind}: ${item}`);
      }
    }
    for (const item of need) if (!items[kind].has(item)) missed.push(`${kind}: ${item}`);
    counts[kind] = c;
  }
  return { counts, missed, unwanted };
}

function figures(results: readonly ChangeResult[]): ChangeFigures {
  const sum = (kind: ChangeKind | undefined, key: keyof Counts) =>
    results.reduce(
      (n, r) => n + (kind ? r.counts[kind][key] : CHANGE_KINDS.reduce((m, k) => m + r.counts[k][key], 0)),
      0,
    );
  const ratio = (a: number, b: number) => (b === 0 ? null : a / b);
  const byKind = Object.fromEntries(
    CHANGE_KINDS.map((k) => [
      k,
      {
        precision: ratio(sum(k, 'hit'), sum(k, 'sent')),
        recall: ratio(sum(k, 'hit'), sum(k, 'need')),
        sent: sum(k, 'sent'),
        need: sum(k, 'need'),
      },
    ]),
  ) as ChangeFigures['byKind'];
  return {
    changes: results.length,
    precision: ratio(sum(undefined, 'hit'), sum(undefined, 'sent')) ?? 1,
    recall: ratio(sum(undefined, 'hit'), sum(undefined, 'need')) ?? 1,
    byKind,
  };
}

async function answer(
  services: Services,
  change: LabelledChange,
  format: 'json' | 'markdown',
): Promise<GetContextOutput> {
  const changes = change.diff
    ? { diff: readFileSync(path.join(DATA, change.diff), 'utf8') }
    : { changedPaths: change.paths };
  return (await callTool(services, getContextTool, { changes, format }, { sessionId: 'eval' })) as GetContextOutput;
}

/** Characters of the MCP response (text content and structured content) per token of max_tokens. */
function responseSize(out: GetContextOutput): number {
  const text = getContextTool.renderText(out);
  const structured = getContextTool.structuredContent?.(out) ?? out;
  return (text.length + JSON.stringify(structured).length) / out.maxTokens;
}

export async function evalChange(log: (m: string) => void, only?: readonly string[]): Promise<ChangeEval> {
  const changes = loadChanges().filter((c) => !only || only.includes(c.corpus));
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'wsctx-eval-change-'));
  const results: ChangeResult[] = [];
  try {
    const workspaces: Record<string, { name: string; absPath: string }> = {
      roadie: {
        name: 'roadie-backstage-plugins',
        absPath: checkout(
          path.join(REPO_ROOT, 'test', 'fixtures', 'roadie-backstage-plugins'),
          'roadie-backstage-plugins',
          'https://github.com/RoadieHQ/roadie-backstage-plugins.git',
          tmp,
        ),
      },
      axis: {
        name: 'backstage-plugins',
        absPath: checkout(
          path.join(DATA, 'axis-backstage-plugins'),
          'backstage-plugins',
          'https://github.com/AxisCommunications/backstage-plugins.git',
          tmp,
        ),
      },
      fernhill: { name: 'fernhill', absPath: path.join(REPO_ROOT, 'examples', 'fernhill') },
    };
    for (const corpus of [...new Set(changes.map((c) => c.corpus))]) {
      const { engine } = await startEvalEngine(`change-${corpus}`, workspaces[corpus], 'off', log);
      const services = createServices({ engine });
      for (const change of changes.filter((c) => c.corpus === corpus)) {
        const out = await answer(services, change, 'json');
        const markdown = await answer(services, change, 'markdown');
        const scored = scoreChange(change, answerItems(out));
        results.push({
          id: change.id,
          corpus,
          subject: change.subject,
          input: change.diff ? 'diff' : 'changedPaths',
          files: out.changes?.filesTotal ?? 0,
          tokens: out.tokens,
          ...scored,
          notWhole: (out.changes?.items ?? []).filter((i) => i.path && !i.sent && i.reason !== 'expectation').length,
          charsPerToken: Math.max(responseSize(out), responseSize(markdown)),
        });
      }
      engine.dispose();
      log(`${corpus}: ${changes.filter((c) => c.corpus === corpus).length} changes`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const corpora = [...new Set(results.map((r) => r.corpus))].map((corpus) => ({
    corpus,
    figures: figures(results.filter((r) => r.corpus === corpus)),
  }));
  return {
    corpora,
    overall: figures(results),
    results,
    maxCharsPerToken: Math.max(0, ...results.map((r) => r.charsPerToken)),
  };
}

/** The eval's Markdown: per corpus and overall, precision and recall by kind, then every miss and unwanted item. */
export function renderChangeEval(ev: ChangeEval): string[] {
  const pct = (x: number | null) => (x === null ? '-' : x.toFixed(3));
  const out: string[] = [
    `## get_context on changes: ${ev.overall.changes} labelled changes (bench/corpora/changes)`,
    '',
    `| corpus | changes | precision | recall | ${CHANGE_KINDS.map((k) => `${k} P / R`).join(' | ')} |`,
    `| --- | --- | --- | --- | ${CHANGE_KINDS.map(() => '---').join(' | ')} |`,
  ];
  const row = (name: string, f: ChangeFigures) =>
    `| ${name} | ${f.changes} | ${pct(f.precision)} | ${pct(f.recall)} | ${CHANGE_KINDS.map((k) => `${pct(f.byKind[k].precision)} / ${pct(f.byKind[k].recall)}`).join(' | ')} |`;
  for (const c of ev.corpora) out.push(row(c.corpus, c.figures));
  out.push(row('**all**', ev.overall), '');
  const ok = ev.results.reduce((n, r) => n + CHANGE_KINDS.reduce((m, k) => m + r.counts[k].ok, 0), 0);
  const notWhole = ev.results.reduce((n, r) => n + r.notWhole, 0);
  out.push(
    `Items sent / needed by kind (all): ${CHANGE_KINDS.map((k) => `${k} ${ev.overall.byKind[k].sent}/${ev.overall.byKind[k].need}`).join(', ')}; ${ok} more sent that the labels call fair (ok, counted neither way); ${notWhole} pages named but not sent whole (the default budget, 12,000 tokens). Largest MCP response: ${ev.maxCharsPerToken.toFixed(2)} characters per token of max_tokens.`,
    '',
  );
  const bad = ev.results.filter((r) => r.missed.length > 0 || r.unwanted.length > 0);
  if (bad.length > 0) {
    out.push(
      '| change | missed (needed, not sent) | unwanted (sent, not labelled; ! = must not) |',
      '| --- | --- | --- |',
    );
    for (const r of bad)
      out.push(
        `| ${r.id} ${r.subject.replace(/\|/g, '/')} | ${r.missed.join('<br>') || '-'} | ${r.unwanted.join('<br>') || '-'} |`,
      );
    out.push('');
  }
  return out;
}

if (require.main === module) {
  const log = (m: string) => process.stderr.write(`[eval] ${m}\n`);
  evalChange(log, process.argv.slice(2).length > 0 ? process.argv.slice(2) : undefined)
    .then((ev) => process.stdout.write(`${renderChangeEval(ev).join('\n')}\n`))
    .catch((error: unknown) => {
      process.stderr.write(`${(error as Error).stack ?? error}\n`);
      process.exitCode = 1;
    });
}
