import assert from 'node:assert/strict';
import { Engine } from '../../../../server/src/engine/engine';
import { libraryFlags } from '../../../../server/src/library/view/conflicts';
import { libraryView, type LibraryView } from '../../../../server/src/library/view/libraryView';
import { prepareLibraryOnChange } from '../../../../server/src/library/context/preparedLibrary';
import { EXAMPLE_WORKSPACE } from '../../../helpers/tempWorkspace';

const TODAY = '2026-06-01';
const NOW = () => new Date(`${TODAY}T09:30:00Z`);
/** How long a test watches for a preparation that must not come. */
const NONE_WITHIN = 400;

describe("a server's per-state structures (library view, flags, context index, ranking tables), prepared when a state comes into service", function () {
  this.timeout(60_000);
  let engine: Engine;
  beforeEach(() => {
    engine = new Engine({
      folders: [{ name: 'fernhill', absPath: EXAMPLE_WORKSPACE }],
      settings: { refreshAfterMs: 0 },
    });
  });
  afterEach(() => engine.dispose());

  /**
   * The next view prepared, or undefined when none comes within `ms` milliseconds of the call. A
   * view that is expected is waited for long (it resolves as soon as it comes, so a loaded machine
   * only makes it slower); one that must not come is watched for `NONE_WITHIN` ms.
   */
  function nextPrepared(prepared: LibraryView[], ms = 20_000): Promise<LibraryView | undefined> {
    const seen = prepared.length;
    const until = Date.now() + ms;
    return new Promise((resolve) => {
      const check = () => {
        if (prepared.length > seen) resolve(prepared[seen]);
        else if (Date.now() >= until) resolve(undefined);
        else setTimeout(check, 5);
      };
      check();
    });
  }

  it("prepares each new state's view of the day with its flags, and a call then reads that very view", async () => {
    const prepared: LibraryView[] = [];
    const stop = prepareLibraryOnChange(engine, NOW, { onPrepared: (v) => prepared.push(v) });
    const state = await engine.waitForIndex();
    const first = await nextPrepared(prepared);
    assert.ok(first, 'the indexed state was prepared');
    assert.equal(first.state, state);
    assert.equal(first.today, TODAY);
    // The view a tool call builds is the prepared one, flags and all (the refund windows' conflict).
    assert.equal(libraryView(state, TODAY), first);
    assert.deepEqual(
      libraryFlags(first)
        .filter((f) => f.kind === 'conflict')
        .map((f) => [f.what, f.places.map((p) => p.path)]),
      [['30 days vs 14 days', ['.context/guides/issuing-refunds.md', '.context/reference/refund-policy.md']]],
    );

    const next = await engine.reindex();
    assert.notEqual(next, state);
    const second = await nextPrepared(prepared);
    assert.equal(second?.state, next, 'a re-index is prepared too');

    stop();
    await engine.reindex();
    assert.equal(await nextPrepared(prepared, NONE_WITHIN), undefined, 'nothing is prepared once stopped');
    assert.equal(prepared.length, 2);
  });

  it('waits for the index to be quiet: states that follow each other within quietMs are prepared once, the last', async () => {
    const prepared: LibraryView[] = [];
    // Well above the example's re-index (under a second on a loaded machine), so the two states come within it.
    prepareLibraryOnChange(engine, NOW, { onPrepared: (v) => prepared.push(v), quietMs: 4_000 });
    await engine.waitForIndex();
    const last = await engine.reindex();
    assert.equal(prepared.length, 0, 'nothing yet: the index has not been quiet for 4 s');
    const only = await nextPrepared(prepared);
    assert.equal(only?.state, last);
    assert.equal(await nextPrepared(prepared, NONE_WITHIN), undefined);
    assert.equal(prepared.length, 1);
  });

  it('reports a preparation that fails to the log and leaves the work to the first call', async () => {
    const logged: string[] = [];
    const badClock = () => new Date(Number.NaN);
    const prepared: LibraryView[] = [];
    prepareLibraryOnChange(engine, badClock, { onPrepared: (v) => prepared.push(v), log: (m) => logged.push(m) });
    await engine.waitForIndex();
    for (const until = Date.now() + 20_000; logged.length === 0 && Date.now() < until; )
      await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(await nextPrepared(prepared, NONE_WITHIN), undefined);
    assert.deepEqual(logged, ['[library] preparing the new index state failed: Invalid time value']);
  });
});
