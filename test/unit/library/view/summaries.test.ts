import assert from 'node:assert/strict';
import { displayIds } from '../../../../server/src/library/view/displayIds';
import { namespaceFromArg, naturalCompare } from '../../../../server/src/library/view/namespaces';
import { exactWordUnits } from '../../../../server/src/library/view/ranking';
import { firstSentences, plainText, sectionBody, truncateAtWord } from '../../../../server/src/library/view/summaries';
import type { Section } from '../../../../server/src/engine/model';

const section = (text: string, level = 2): Section => ({
  id: 'x',
  docId: 'd',
  headingPath: ['T', 'H'],
  level,
  startLine: 1,
  endLine: 9,
  text,
});

describe('library summaries, ids and plan words', () => {
  it('first sentences skip code blocks, tables and rules, keep code text and link labels', () => {
    // A README's logo, badges and HTML wrappers are no sentence: the first prose is.
    assert.equal(
      firstSentences(
        '<div align="center"> <img src="https://x.invalid/logo.png" alt="Roadie Logo" width="400"/>\n</div>\n\n[![npm](https://img.invalid/npm.svg)](https://npm.invalid) ![CI](https://img.invalid/ci.svg)\n\nThis package is a node library for the <b>Argo CD</b> plugin. It does more.',
        1,
      ),
      'This package is a node library for the Argo CD plugin.',
    );
    assert.equal(
      firstSentences(
        '```sh\nmake test\n```\n\n| a | b |\n| - | - |\n\n---\n\nRun `make bootstrap` first. Then test.',
        1,
      ),
      'Run make bootstrap first.',
    );
    assert.equal(
      firstSentences('See [the guide](https://x.test/g) and [[Refund policy|the policy]]. More.', 2),
      'See the guide and the policy. More.',
    );
    assert.equal(firstSentences('- First item, *emphasised*.\n- Second item.', 1), 'First item, emphasised.');
    assert.equal(
      firstSentences('**Acquirer**\n: The bank-side company. It settles.', 1),
      'Acquirer The bank-side company.',
    );
    assert.equal(
      firstSentences('Keep amount_minor as an integer, e.g. 4999 for 49.99 EUR. Always.', 1),
      'Keep amount_minor as an integer, e.g. 4999 for 49.99 EUR.',
    );
    assert.equal(firstSentences('', 1), '');
    assert.equal(plainText('Draft by __Hannah__, `v2`, see ![chart](c.png).'), 'Draft by Hannah, v2, see chart.');
  });

  it('a section body leaves out its ATX or setext heading', () => {
    assert.equal(sectionBody(section('## Heading\n\nBody line.')), 'Body line.');
    assert.equal(sectionBody(section('Heading\n-------\nBody.')), 'Body.');
    assert.equal(sectionBody(section('Preamble text.', 0)), 'Preamble text.');
  });

  it('cuts long text at a word with an ellipsis', () => {
    assert.equal(truncateAtWord('one two three four five', 14), 'one two three…');
    assert.equal(truncateAtWord('short', 14), 'short');
  });

  it('prints 8 characters, more only where another id shares them', () => {
    const ids = ['aaaaaaaa11', 'aaaaaaaa22', 'bbbbbbbbcc', 'aaaaaaab00'];
    assert.deepEqual(Object.fromEntries(displayIds(ids)), {
      aaaaaaaa11: 'aaaaaaaa1',
      aaaaaaaa22: 'aaaaaaaa2',
      aaaaaaab00: 'aaaaaaab',
      bbbbbbbbcc: 'bbbbbbbb',
    });
  });

  it('orders titles naturally: numbers as numbers, case ignored', () => {
    const titles = ['Card 10 fees', 'card 2 fees', 'Card 1 fees', 'Card 1a', 'Card', 'Bronze'];
    assert.deepEqual([...titles].sort(naturalCompare), [
      'Bronze',
      'Card',
      'Card 1 fees',
      'Card 1a',
      'card 2 fees',
      'Card 10 fees',
    ]);
  });

  it('reads namespace arguments: "." and "" are the top, a .context/ prefix is optional', () => {
    assert.equal(namespaceFromArg('.'), '');
    assert.equal(namespaceFromArg(''), '');
    assert.equal(namespaceFromArg('.context/rules/'), 'rules');
    assert.equal(namespaceFromArg(' rules '), 'rules');
  });

  it('exact words: identifiers, codes with digits, upper-case codes, flags and backticked words', () => {
    const keys = exactWordUnits(
      'set BILLING_RETRY_MAX, check SEV1 and PAN handling, run --dry-run and --force, read `refunds` for billing-worker',
    ).map((u) => u.key);
    assert.deepEqual(keys, ['billing_retry_max', 'sev1', 'pan', 'dry-run', 'forc', 'refund', 'billing-worker']);
    assert.deepEqual(exactWordUnits('writing a refund email to a customer'), []);
  });
});
