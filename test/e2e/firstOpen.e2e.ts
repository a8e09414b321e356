/**
 * A new user's first open, in a real VS Code (code-server + headless chromium): the example
 * workspace opened with the packaged VSIX and its default settings (the local embedding model
 * on), a fresh profile and an empty cache. What they see, each with a picture and checked on the
 * text shown: the status item while indexing, while embedding and when ready; a hover on an
 * entity ref; the search; and `@context` answering with its sources.
 *
 *   npx mocha --no-config --node-option import=tsx --timeout 600000 test/e2e/firstOpen.e2e.ts
 *
 * (after `node scripts/e2e/setup.mjs` and `node scripts/package/vsix.mjs`; E2E_VSIX,
 * E2E_PROJECT, E2E_WORKSPACE and E2E_KEEP_RUN as in extension.e2e.ts). The phases are recorded
 * as they happen (statusTimeline.ts), since the first pass over the example takes about a second.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { askChat, maximizeChat, testModelPrompts } from './chatChecks';
import { copyWorkspace, packTestModel } from './fixtures';
import { VsCodeSession, UI_TIMEOUT_MS } from './harness';
import { defaultVsixPath, repoRoot } from './paths';
import { hoverAt, readQuickPickItems, searchWorkspaceContext } from './productChecks';
import { ourItem, readStatusItem } from './statusChecks';
import { StatusTimeline, type Frame } from './statusTimeline';

const vsixPath = process.env.E2E_VSIX ?? defaultVsixPath;
const sourceWorkspace = process.env.E2E_WORKSPACE ?? path.join(repoRoot, 'examples', 'fernhill');

const QUESTION = 'how do I roll back billing-worker?';
const INDEXING = /^Context: indexing( \d+ of \d+)?$/;
const EMBEDDING = /^Context: embedding \d+ of \d+/;
const READY = /^Context: ready$/;
/** A phase shown at least this long must have been painted: a few frames even under load. */
const PICTURE_NEEDS_MS = 1000;

describe("A new user's first open (code-server + chromium, embeddings on)", function () {
  this.timeout(10 * 60_000);
  let vscode: VsCodeSession | undefined;
  const timeline = new StatusTimeline();
  const workspace = copyWorkspace(sourceWorkspace);

  before(async function () {
    vscode = await VsCodeSession.start({
      workspace: workspace.dir,
      vsixPaths: [vsixPath, packTestModel()],
      knownFile: 'catalog-info.yaml',
      beforeOpen: (session) => timeline.attach(session),
    });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await vscode?.screenshot(`first-open-failed-${this.currentTest.title}`).catch(() => undefined);
    await vscode?.dismiss().catch(() => undefined);
  });

  after(async function () {
    await timeline.stopFrames();
    await vscode?.stop();
    workspace.remove();
  });

  function session(): VsCodeSession {
    if (!vscode) throw new Error('e2e: VS Code did not start (see the before hook)');
    return vscode;
  }

  /**
   * Saves the middle frame painted while the item showed `phase`, and returns the item's text
   * then. A phase shorter than the screencast can deliver a frame (Chrome sends the next frame
   * only once the last was acknowledged over DevTools, which takes longer than that on a loaded
   * machine) gets no picture: that is how fast the product was, not something it did wrong, so
   * it is said in the output and the text checks above stand for it.
   */
  function savePhase(step: string, phase: RegExp): string | undefined {
    const frames: Frame[] = timeline.framesIn(phase);
    const shownForMs = timeline.durationOf(phase);
    if (frames.length === 0 && shownForMs < PICTURE_NEEDS_MS) {
      console.log(`      ${step}: shown for ${shownForMs} ms, no frame painted in that time; no picture`);
      return undefined;
    }
    assert.ok(
      frames.length > 0,
      `no frame was painted while the status item matched ${phase} (${shownForMs} ms); it said:\n${timeline.describe()}`,
    );
    const frame = frames[Math.floor(frames.length / 2)];
    session().saveImage(step, frame.png, 'png');
    const shown = timeline.textAt(frame.at);
    assert.ok(shown !== undefined && phase.test(shown), `the saved frame shows "${shown}"`);
    return shown;
  }

  it('shows the status item indexing the files, n of N, then embedding the sections with the time left, then ready', async function () {
    const vs = session();
    const ready = await readStatusItem(
      vs,
      (item) => ourItem('Context: ready')(item) && / indexed \d{4}-/.test(item.label),
      4 * UI_TIMEOUT_MS,
    );
    await timeline.stopFrames();

    const texts = timeline.changes.map((c) => c.text);
    const firstIndexing = texts.findIndex((t) => INDEXING.test(t));
    const firstEmbedding = texts.findIndex((t) => EMBEDDING.test(t));
    const lastReady = texts.length - 1;
    assert.ok(firstIndexing >= 0, `never showed indexing:\n${timeline.describe()}`);
    assert.ok(firstEmbedding > firstIndexing, `never showed embedding after indexing:\n${timeline.describe()}`);
    assert.match(texts[lastReady], READY);

    // While indexing, the label says what is being done to the example's 99 files; the files
    // checked n of N show when the pass reports them before it moves on (not every time here).
    const indexing = timeline.matching(INDEXING);
    assert.ok(
      indexing.some((c) =>
        /^Workspace Context: indexing( \d+ of 99)?, (Checked \d+ of 99 files|Parsing and indexing 99 files)$/.test(
          c.label,
        ),
      ),
      timeline.describe(),
    );
    const counted = indexing
      .filter((c) => / of /.test(c.text))
      .map((c) => /(\d+) of (\d+)/.exec(c.text)!.slice(1).map(Number));
    assert.ok(
      counted.every(([done, total]) => done <= total && total === 99),
      `${JSON.stringify(counted)}\n${timeline.describe()}`,
    );
    // Embedding counts the example's 350 sections up, says about how long is left, and that
    // answers already work on words meanwhile.
    const embedding = timeline.matching(EMBEDDING);
    const done = embedding.map((c) => Number(/embedding (\d+) of 350/.exec(c.text)?.[1] ?? NaN));
    assert.ok(
      done.every((n) => Number.isInteger(n)),
      `embedding counts not "n of 350":\n${timeline.describe()}`,
    );
    assert.deepEqual(
      done,
      [...done].sort((a, b) => a - b),
      'the embedded count only grows',
    );
    assert.ok(
      embedding.some((c) => /, about \d+ min left$/.test(c.text)),
      `no time left shown:\n${timeline.describe()}`,
    );
    assert.match(
      embedding[embedding.length - 1].label,
      /^Workspace Context: embedding \d+ of 350(, about \d+ min left)?, 66 entities, 350 sections, sections without vectors yet rank on words$/,
    );
    assert.match(
      ready.label,
      /^Workspace Context: ready, 66 entities, 350 sections, indexed \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/,
    );

    // How long each phase showed, for the README's first-run figures (not asserted: timing).
    const span = (from: number, to: number) =>
      ((timeline.changes[to].at - timeline.changes[from].at) / 1000).toFixed(1);
    console.log(
      `      first open: starting shown ${span(0, firstIndexing)} s, indexing ${span(firstIndexing, firstEmbedding)} s, embedding ${span(firstEmbedding, lastReady)} s`,
    );

    savePhase('first-open-indexing', INDEXING);
    savePhase('first-open-embedding', EMBEDDING);
    await vs.screenshot('first-open-ready');
  });

  it('hovers an entity ref and shows the entity, its owner and its neighbours', async function () {
    const vs = session();
    // payments-platform/catalog-info.yaml line 29: `  owner: payments-team` (System billing).
    const hover = await hoverAt(vs, 'payments-platform/catalog-info.yaml', 'payments-team', ['Neighbours'], 29);
    await vs.screenshot('first-open-hover');
    const lines = hover
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    assert.deepEqual(lines.slice(0, 2), ['Payments team', 'Group group:default/payments-team · type team']);
    assert.ok(lines.includes('childOf → group:default/engineering'), hover);
    assert.ok(lines.includes('Expand 2 hops: dependencies · dependents · both'), hover);
  });

  it('searches as you type, ranking on words and meaning, with the runbook first', async function () {
    const vs = session();
    await searchWorkspaceContext(vs, QUESTION);
    const items = await readQuickPickItems(vs);
    await vs.screenshot('first-open-search');
    assert.match(items[0].label, /^Roll back first, investigate second\. /);
    assert.match(items[0].description, /^score \d\.\d\d$/);
    assert.equal(
      items[0].detail,
      'Deploy and rollback › Rolling back · payments-platform/services/billing-worker/docs/runbooks/deploy.md:35-45',
    );
  });

  it('answers in chat with @context from the passages it found, and lists them as sources', async function () {
    const vs = session();
    const before = await testModelPrompts(vs);
    const response = await askChat(vs, `@context ${QUESTION}`, (r) => r.includes('**Sources**'));
    await maximizeChat(vs);
    await vs.screenshot('first-open-chat-answer');
    assert.match(response, /E2E model read \d+ passages\./);
    assert.match(response, /The first is "Deploy and rollback › Rolling back" \[1\]\./);
    assert.match(response, /\*\*Sources\*\*\s+\[1\] `deploy\.md:35-45`/);
    assert.equal((await testModelPrompts(vs)).context, before.context + 1);
  });
});
