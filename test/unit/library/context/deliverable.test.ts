/**
 * A page about writing for people (a voice guide, a template) comes with work that writes text
 * people read, never with work that produces code, however much the task's words touch its
 * subject (deliverable.ts). On the example workspace's library.
 */
import assert from 'node:assert/strict';
import { EXAMPLE_WORKSPACE } from '../../../helpers/tempWorkspace';
import { notForWork, producesCode } from '../../../../server/src/library/context/deliverable';
import { indexDir, run, type Indexed } from './herald';

const EXAMPLE = EXAMPLE_WORKSPACE;
const VOICE = '.context/voice/subscriber-facing-messages.md';

describe('get_context: the voice page only where the task writes prose', function () {
  this.timeout(60_000);
  let lib: Indexed;
  before(async () => {
    lib = await indexDir(EXAMPLE, 'fernhill');
  });
  after(() => lib.engine.dispose());

  const sent = async (task: string) => {
    const built = await run(lib.view, task, {}, 'Fernhill');
    return { pages: built.bundle.reference.map((p) => p.doc.path), plan: built.bundle.plan };
  };

  it('reads code and configuration from the deliverable, text from anything else', () => {
    assert.deepEqual(
      ['SQL migration', 'feature flag', 'Vitest test', 'dunning notice', 'checkout error message', undefined].map(
        producesCode,
      ),
      [true, true, true, false, false, false],
    );
    const voice = lib.view.docs.find((d) => d.path === VOICE)!;
    assert.equal(notForWork(voice, 'migration'), 'migration');
    assert.equal(notForWork(voice, 'dunning notice'), undefined);
  });

  it('sends no voice page with a migration whose words are about the texts shoppers see', async () => {
    const task = 'add a migration that creates the checkout_messages table holding the texts shown to shoppers';
    const { pages, plan } = await sent(task);
    assert.equal(plan.deliverable, 'migration');
    assert.ok(pages.includes('.github/instructions/migrations.instructions.md'), pages.join(' '));
    assert.ok(!pages.includes(VOICE), pages.join(' '));
    const flag = await sent('add a feature flag that pauses dunning for one merchant');
    assert.ok(!flag.pages.includes(VOICE), flag.pages.join(' '));
  });

  it('sends it with text a shopper reads', async () => {
    const { pages } = await sent('rewrite the checkout error copy a shopper sees when their card has expired');
    assert.ok(pages.includes(VOICE), pages.join(' '));
    const notice = await sent('draft the dunning notice email to subscribers whose renewal payment failed');
    assert.ok(notice.pages.includes(VOICE), notice.pages.join(' '));
  });
});
