import assert from 'node:assert/strict';
import { changeChatMarkdown, changeSummary } from '../../../client/src/changeText';
import type { ChangeContextResult } from '../../../shared/protocol';

const RESULT: ChangeContextResult = {
  uri: 'workspace-context-results:/1/change.md',
  title: 'Context for my change',
  passages: 0,
  compared: 'the working tree against HEAD',
  files: 3,
  entities: ['component:default/billing-worker'],
  unowned: ['docs/*draft*.md'],
  items: [
    { reason: 'owns', label: 'component:default/billing-worker', sent: true },
    { reason: 'runbook', label: 'Deploy and rollback', path: 'docs/runbooks/deploy.md', sent: true },
    { reason: 'rule-applies', label: 'AGENTS.md', path: 'AGENTS.md', sent: false },
    {
      reason: 'expectation',
      label: 'how do I roll back billing-worker?',
      path: '.wsctx/expectations.yaml',
      sent: true,
    },
  ],
  markdown: '',
};

describe('the words of "Context for my change" (client/src/changeText.ts)', () => {
  it('summarises the change in one line', () => {
    assert.equal(changeSummary(RESULT), '3 files in component:default/billing-worker; 1 owned by none');
    assert.equal(changeSummary({ ...RESULT, files: 1, entities: [] }), '1 file owned by no entity');
  });

  it('lists every item under its reason, marks what was not sent whole, and escapes workspace text', () => {
    assert.equal(
      changeChatMarkdown(RESULT),
      [
        '**Context for my change** (the working tree against HEAD): 3 files in component:default/billing-worker; 1 owned by none.',
        '',
        '**Owned by**',
        '- component:default/billing-worker',
        '',
        '**Rules for the changed paths**',
        '- AGENTS.md *',
        '',
        '**Runbooks**',
        '- Deploy and rollback (docs/runbooks/deploy.md)',
        '',
        '**Expectations it touches (run `wsctx check`)**',
        '- how do I roll back billing-worker? (.wsctx/expectations.yaml)',
        '',
        '**Owned by no entity**: docs/\\*draft\\*.md',
        '',
        '\\* not in the bundle in full (the budget): open it by its path.',
      ].join('\n'),
    );
  });
});
