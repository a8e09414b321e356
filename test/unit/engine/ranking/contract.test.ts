/**
 * The workspace_context contract, one term at a time: each fixture differs from its twin in
 * exactly one thing, and the scores must differ by exactly what the formula says.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../../../../server/src/engine/engine';
import type { IndexState } from '../../../../server/src/engine/indexState';
import {
  FLOOR,
  idf,
  MIN_MATCH,
  NAMED_ENTITY_WEIGHT,
  RECENCY_WEIGHT,
  RUN_HEALTH_WEIGHT,
  TITLE_WEIGHT,
} from '../../../../server/src/engine/ranking/contract';
import { rankWorkspaceContext, type RankedPassage } from '../../../../server/src/engine/ranking/workspaceContextRanker';
import { analyzeQuery } from '../../../../server/src/engine/text/analyzer';
import { commitAll, initRepo, removeTempDirs, tempDir, write } from '../../../helpers/tempWorkspace';

const NOW = Date.UTC(2026, 10, 30); // 2026-11-30
const DAY = 86_400_000;

async function index(dir: string, name = 'ws'): Promise<{ engine: Engine; state: IndexState }> {
  const engine = new Engine({ folders: [{ name, absPath: dir }] });
  return { engine, state: await engine.waitForIndex() };
}

function rank(state: IndexState, question: string, limit = 10): RankedPassage[] {
  return rankWorkspaceContext(state, { question, limit, now: NOW }).passages;
}

function byPath(passages: RankedPassage[], p: string): RankedPassage {
  const found = passages.find((x) => x.entry.doc.path === p);
  assert.ok(found, `${p} is among the results: ${passages.map((x) => x.entry.doc.path).join(', ')}`);
  return found!;
}

function why(p: RankedPassage, signal: string) {
  return p.why.find((w) => w.signal === signal)!;
}

const epic = (title: string, body: string, entities: string[] = []) =>
  `---\nkind: epic\n${entities.length ? `entities: [${entities.join(', ')}]\n` : ''}---\n# ${title}\n\n${body}\n`;

describe('workspace_context contract', () => {
  const engines: Engine[] = [];
  afterEach(() => engines.splice(0).forEach((e) => e.dispose()));
  after(removeTempDirs);

  it('words: the rarity-weighted share of the question terms a passage holds, each graded by its saturation', async () => {
    const dir = tempDir('words');
    write(dir, 'epics/a.md', epic('Alpha', 'The dunning schedule has an escalation step.'));
    write(dir, 'epics/b.md', epic('Bravo', 'The dunning schedule is weekly.'));
    write(dir, 'epics/c.md', epic('Charlie', 'Nothing relevant here.'));
    const { engine, state } = await index(dir);
    engines.push(engine);
    const passages = rank(state, 'dunning schedule escalation');
    assert.deepEqual(
      passages.map((p) => p.entry.doc.path),
      ['epics/a.md', 'epics/b.md'],
    );
    const n = state.lexical.sectionCount;
    const w = (term: string) => idf(state.lexical.df(term), n);
    const total = w('dun') + w('schedul') + w('escal');
    const [a, b] = passages.map((p) => why(p, 'words'));
    // Each term's share is its idf over the question's total; words = sum of share x saturation.
    assert.deepEqual(
      a.terms!.map((t) => [t.term, t.weight]),
      [
        ['dunning', w('dun')],
        ['schedule', w('schedul')],
        ['escalation', w('escal')],
      ],
    );
    for (const t of a.terms!) assert.ok(Math.abs(t.share - t.weight / total) < 1e-12);
    assert.ok(Math.abs(a.raw - a.terms!.reduce((sum, t) => sum + t.share * t.saturation, 0)) < 1e-12);
    // A term once in a short body saturates well below 1: graded, not present-or-absent.
    for (const t of a.terms!) assert.ok(t.saturation > 0.3 && t.saturation < 1, `${t.term} ${t.saturation}`);
    assert.equal(b.terms!.find((t) => t.term === 'escalation')!.saturation, 0);
    assert.ok(a.raw > b.raw);
    assert.match(
      b.detail,
      /^2 of 3 terms; matched dunning 0\.\d\d \(body\), schedule 0\.\d\d \(body\); missing escalation$/,
    );
    // No embedding: words count at full weight and meaning contributes nothing.
    assert.equal(a.weight, 1);
    assert.deepEqual(why(passages[0], 'meaning'), {
      signal: 'meaning',
      weight: 0,
      raw: 0,
      contribution: 0,
      detail: 'embeddings are off: words count at full weight',
    });
  });

  it('title: a question term in the document title adds 0.20 times its graded share', async () => {
    const dir = tempDir('title');
    write(dir, 'epics/titled.md', epic('Refund window', 'How long a refund window stays open.'));
    write(dir, 'epics/plain.md', epic('Customer money', 'How long a refund window stays open.'));
    const { engine, state } = await index(dir);
    engines.push(engine);
    const passages = rank(state, 'refund window');
    const titled = byPath(passages, 'epics/titled.md');
    const plain = byPath(passages, 'epics/plain.md');
    assert.equal(passages[0], titled);
    // A title of average length (both titles hold two terms) that holds every term scores 1.
    assert.equal(why(titled, 'title').raw, 1);
    assert.equal(why(titled, 'title').contribution, TITLE_WEIGHT);
    assert.equal(why(plain, 'title').contribution, 0);
    // The title is also a words field (BM25F): the titled passage matches more, and then earns the bonus.
    const wordsGap = why(titled, 'words').raw - why(plain, 'words').raw;
    assert.ok(wordsGap > 0);
    assert.ok(Math.abs(titled.score - plain.score - wordsGap - TITLE_WEIGHT) < 1e-12);
  });

  it("title: graded by the title's length, a long title holding the term earns less than a short one", async () => {
    const dir = tempDir('title-length');
    write(dir, 'epics/short.md', epic('Helm', 'Values files for a chart.'));
    write(
      dir,
      'epics/long.md',
      epic('Helm chart upgrade notes for the three four release train', 'Values files for a chart.'),
    );
    const { engine, state } = await index(dir);
    engines.push(engine);
    const passages = rank(state, 'helm values files');
    const short = why(byPath(passages, 'epics/short.md'), 'title');
    const long = why(byPath(passages, 'epics/long.md'), 'title');
    assert.ok(short.raw > long.raw && long.raw > 0, `short ${short.raw} > long ${long.raw} > 0`);
    assert.deepEqual(
      short.terms!.map((t) => [t.term, t.fields]),
      [['helm', ['title']]],
    );
  });

  it('named entity: passages of an entity the question names get 0.15', async () => {
    const dir = tempDir('named');
    write(
      dir,
      'catalog-info.yaml',
      'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata: { name: ledger-service, title: Ledger }\nspec: { type: service, lifecycle: production, owner: team-a }\n',
    );
    write(
      dir,
      'epics/attached.md',
      epic('Posting rules', 'Postings must balance before commit.', ['component:ledger-service']),
    );
    write(dir, 'epics/loose.md', epic('Posting checks', 'Postings must balance before commit.'));
    // Other documents, so that the named entity holds under half of the index (the bonus in full).
    for (const name of ['rotas', 'budgets', 'hiring']) write(dir, `epics/${name}.md`, epic(name, `Notes on ${name}.`));
    const { engine, state } = await index(dir);
    engines.push(engine);
    const ranked = rankWorkspaceContext(state, {
      question: 'must postings balance in the ledger service?',
      limit: 10,
      now: NOW,
    });
    assert.deepEqual(
      ranked.named.map((n) => [n.ref, n.phrase]),
      [['component:default/ledger-service', 'ledger service']],
    );
    const attached = byPath(ranked.passages, 'epics/attached.md');
    const loose = byPath(ranked.passages, 'epics/loose.md');
    assert.equal(why(attached, 'namedEntity').contribution, NAMED_ENTITY_WEIGHT);
    assert.equal(
      why(attached, 'namedEntity').detail,
      'belongs to component:default/ledger-service, named as "ledger service"',
    );
    assert.equal(why(loose, 'namedEntity').contribution, 0);
    assert.ok(ranked.passages.indexOf(attached) < ranked.passages.indexOf(loose));
    assert.ok(Math.abs(attached.score - loose.score - NAMED_ENTITY_WEIGHT) < 1e-12);
  });

  it('named entity: fades when the named entity holds most of the index, and says so', async () => {
    const dir = tempDir('named-everywhere');
    write(
      dir,
      'catalog-info.yaml',
      'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata: { name: ledger-service, title: Ledger }\nspec: { type: service, lifecycle: production, owner: team-a }\n',
    );
    for (const name of ['posting', 'balance', 'commit'])
      write(
        dir,
        `epics/${name}.md`,
        epic(`Ledger ${name}`, `The ${name} rules of the ledger service.`, ['component:ledger-service']),
      );
    const { engine, state } = await index(dir);
    engines.push(engine);
    const ranked = rankWorkspaceContext(state, { question: 'ledger service balance rules', limit: 10, now: NOW });
    const top = ranked.passages[0];
    assert.equal(top.entry.doc.path, 'epics/balance.md');
    // Every passage belongs to ledger-service: the bonus cannot tell them apart, so it is 0.
    assert.equal(why(top, 'namedEntity').raw, 0);
    assert.match(
      why(top, 'namedEntity').detail,
      /^belongs to component:default\/ledger-service, named as "ledger service"; the named entities hold 100% of all passages, so the bonus is scaled to 0\.00/,
    );
  });

  it('named entity detection: refs, names, titles, with -, _ and spaces alike, whole words only', async () => {
    const dir = tempDir('dictionary');
    write(
      dir,
      'catalog-info.yaml',
      [
        'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata: { name: billing-worker, title: Invoice Runner }\nspec: { type: service, lifecycle: production, owner: team-a }',
        'apiVersion: backstage.io/v1alpha1\nkind: Group\nmetadata: { name: team-a }\nspec: { type: team, children: [] }',
      ].join('\n---\n'),
    );
    const { engine, state } = await index(dir);
    engines.push(engine);
    const names = (q: string) =>
      rankWorkspaceContext(state, { question: q, limit: 1, now: NOW }).named.map((n) => n.ref);
    assert.deepEqual(names('What does component:default/billing-worker do?'), ['component:default/billing-worker']);
    assert.deepEqual(names('is Billing_Worker healthy'), ['component:default/billing-worker']);
    assert.deepEqual(names('who runs the invoice runner'), ['component:default/billing-worker']);
    assert.deepEqual(names('TEAM-A on call'), ['group:default/team-a']);
    assert.deepEqual(names('billing workers everywhere'), []);
  });

  it('recency: linear from 0.10 for a commit today to 0 at 365 days, from real back-dated git commits', async () => {
    const dir = tempDir('recency');
    initRepo(dir);
    write(dir, 'epics/old.md', epic('Old notes', 'Cache warming runs nightly.'));
    commitAll(dir, 'old', Math.floor((NOW - 300 * DAY) / 1000));
    write(dir, 'epics/new.md', epic('New notes', 'Cache warming runs nightly.'));
    commitAll(dir, 'new', Math.floor((NOW - 10 * DAY) / 1000));
    write(dir, 'epics/ancient.md', epic('Ancient notes', 'Cache warming runs nightly.'));
    fs.utimesSync(path.join(dir, 'epics/ancient.md'), new Date(), new Date());
    const { engine, state } = await index(dir);
    engines.push(engine);
    const passages = rank(state, 'cache warming nightly');
    const recent = byPath(passages, 'epics/new.md');
    const old = byPath(passages, 'epics/old.md');
    const uncommitted = byPath(passages, 'epics/ancient.md');
    assert.ok(Math.abs(why(recent, 'recency').raw - (1 - 10 / 365)) < 1e-9);
    assert.ok(Math.abs(why(old, 'recency').raw - (1 - 300 / 365)) < 1e-9);
    assert.equal(why(recent, 'recency').detail, 'last committed 10 days ago');
    assert.equal(why(uncommitted, 'recency').raw, 0);
    assert.equal(why(uncommitted, 'recency').detail, 'no commit history for this file');
    assert.deepEqual(
      passages.map((p) => p.entry.doc.path),
      ['epics/new.md', 'epics/old.md', 'epics/ancient.md'],
    );
    assert.ok(Math.abs(recent.score - old.score - RECENCY_WEIGHT * (290 / 365)) < 1e-9);
  });

  it("run health: 0.05 when the repository's last run succeeded, nothing when failed or unknown", async () => {
    const dir = tempDir('health');
    for (const repo of ['green', 'red', 'silent']) {
      write(
        dir,
        `${repo}/catalog-info.yaml`,
        `apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata: { name: ${repo}-svc }\nspec: { type: service, lifecycle: production, owner: team-a }\n`,
      );
      write(dir, `${repo}/overview.md`, '# Overview\n\nThe importer retries uploads.\n');
    }
    write(
      dir,
      'green/.wsctx/run-health.json',
      JSON.stringify({ status: 'succeeded', finishedAt: '2026-11-29T08:00:00Z' }),
    );
    write(dir, 'red/.wsctx/run-health.json', JSON.stringify({ status: 'failed' }));
    const { engine, state } = await index(dir);
    engines.push(engine);
    const passages = rank(state, 'importer retries uploads');
    const green = byPath(passages, 'green/overview.md');
    assert.equal(passages[0], green);
    assert.equal(why(green, 'runHealth').contribution, RUN_HEALTH_WEIGHT);
    assert.equal(why(green, 'runHealth').detail, 'last run of green succeeded at 2026-11-29T08:00:00Z');
    assert.equal(why(byPath(passages, 'red/overview.md'), 'runHealth').contribution, 0);
    assert.equal(why(byPath(passages, 'red/overview.md'), 'runHealth').detail, 'last run of red failed');
    assert.equal(
      why(byPath(passages, 'silent/overview.md'), 'runHealth').detail,
      'no run verdict for repository silent (unknown counts as nothing)',
    );
  });

  it('minimum match: a passage that matches too little scores its match and nothing else; the floor drops the rest', async () => {
    const dir = tempDir('gates');
    write(
      dir,
      'catalog-info.yaml',
      'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata: { name: gateway }\nspec: { type: service, lifecycle: production, owner: team-a }\n',
    );
    // weak.md holds 2 of the question's 7 terms (one common, one rare): a match between the
    // floor and the minimum, with a title and an entity that would otherwise earn bonuses.
    write(dir, 'epics/weak.md', epic('Gateway jitter', 'The gateway adds jitter.', ['component:gateway']));
    write(
      dir,
      'epics/strong.md',
      epic('Timeouts', 'Gateway timeouts are retried with jitter, backoff, a ceiling, spread and a budget.'),
    );
    for (let i = 0; i < 6; i++)
      write(dir, `epics/filler-${i}.md`, epic(`Filler ${i}`, 'The gateway is mentioned everywhere.'));
    const { engine, state } = await index(dir);
    engines.push(engine);
    const question = 'gateway timeouts jitter backoff ceiling spread budget';
    const passages = rank(state, question, 20);
    const strong = byPath(passages, 'epics/strong.md');
    assert.equal(passages[0], strong);
    assert.ok(strong.match >= MIN_MATCH);
    const weak = byPath(passages, 'epics/weak.md');
    assert.ok(
      weak.match > FLOOR && weak.match < MIN_MATCH,
      `weak match ${weak.match} lies between the floor and the minimum`,
    );
    assert.equal(weak.score, weak.match, 'no bonuses under the minimum match');
    for (const signal of ['title', 'namedEntity', 'recency', 'runHealth']) {
      assert.equal(why(weak, signal).contribution, 0);
      assert.equal(
        why(weak, signal).detail,
        `no bonus: match ${weak.match.toFixed(3)} is below the minimum ${MIN_MATCH}`,
      );
    }
    // Fillers hold only the most common term: under the floor, so not returned at all.
    const n = state.lexical.sectionCount;
    const w = (term: string) => idf(state.lexical.df(term), n);
    const keys = analyzeQuery(question).map((t) => t.key);
    assert.deepEqual(keys, ['gateway', 'timeout', 'jitter', 'backoff', 'ceil', 'spread', 'budget']);
    const total = keys.reduce((sum, t) => sum + w(t), 0);
    assert.ok(w('gateway') / total < FLOOR);
    assert.equal(passages.filter((p) => p.entry.doc.path.startsWith('epics/filler-')).length, 0);
    for (const p of passages) assert.ok(p.score >= FLOOR);
  });

  it('why[] lists every term and adds up to the score for every returned passage', async () => {
    const dir = tempDir('sums');
    initRepo(dir);
    write(
      dir,
      'catalog-info.yaml',
      'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata: { name: search-api }\nspec: { type: service, lifecycle: production, owner: team-a }\n',
    );
    write(
      dir,
      'overview.md',
      '# Search\n\n## Scaling\n\nThe search-api scales on queue depth.\n\n## Caching\n\nResults are cached for 60 seconds.\n',
    );
    write(dir, '.wsctx/run-health.json', '{"status":"passed"}');
    commitAll(dir, 'c', Math.floor((NOW - 40 * DAY) / 1000));
    const { engine, state } = await index(dir);
    engines.push(engine);
    for (const question of ['how does search-api scale?', 'search caching seconds', 'queue depth']) {
      for (const p of rank(state, question)) {
        assert.deepEqual(
          p.why.map((w) => w.signal),
          ['words', 'meaning', 'title', 'namedEntity', 'recency', 'runHealth'],
        );
        const sum = p.why.reduce((s, w) => s + w.contribution, 0);
        assert.equal(sum, p.score);
        for (const w of p.why)
          assert.ok(Math.abs(w.weight * w.raw - w.contribution) < 1e-12, `${w.signal} = weight x raw`);
      }
    }
  });
});
