/**
 * `wsctx context --changed PATH...` and `--diff [RANGE]` / `--staged` through the built CLI: the
 * change bundle of the example workspace, and of a copy of it made a folder of git repositories
 * (one per repository, as a developer's clone folder is), changed as a developer would change it.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GetContextOutput } from '../../server/src/tools/getContext';
import { wsctx } from '../helpers/cli';
import { commitAll, copyExampleWorkspace, EXAMPLE_WORKSPACE, git, removeTempDirs } from '../helpers/tempWorkspace';

const BW = 'payments-platform/services/billing-worker';

describe('wsctx context for a change (built CLI)', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('--changed a billing-worker file: billing-worker, its owner, dependents, runbooks, rules and epic, each with its reason', () => {
    const run = wsctx(['context', '--changed', `${BW}/src/worker.ts`, '--workspace', EXAMPLE_WORKSPACE, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as GetContextOutput;
    const entity = out.changes!.entities[0];
    assert.deepEqual(
      [entity.ref, entity.owner, entity.lifecycle],
      ['component:default/billing-worker', 'group:default/payments-team', 'production'],
    );
    assert.deepEqual(out.changes!.dependents, []);
    const reasons = (reason: string) =>
      out.changes!.items.filter((i) => i.reason === reason).map((i) => i.ref ?? i.path);
    assert.deepEqual(reasons('owns'), ['component:default/billing-worker']);
    assert.deepEqual(reasons('runbook'), [
      `${BW}/docs/runbooks/alerts.md`,
      `${BW}/docs/runbooks/deploy.md`,
      `${BW}/docs/runbooks/dunning.md`,
    ]);
    assert.deepEqual(reasons('rule-applies').slice(0, 2), [
      '.cursor/rules/money-and-pci.mdc',
      '.github/instructions/typescript.instructions.md',
    ]);
    assert.deepEqual(reasons('epic'), ['payments-platform/epics/smart-dunning.md']);
    // The Markdown says what depends on it, even when nothing does.
    const md = wsctx(['context', '--changed', `${BW}/src/worker.ts`, '--workspace', EXAMPLE_WORKSPACE]);
    assert.equal(md.code, 0, md.stderr);
    assert.match(
      md.stdout,
      /\n- Depended on by: nothing in the catalog \(no entity depends on it or consumes an API it provides\)\n/,
    );
    assert.match(
      md.stdout,
      /\n## Smart dunning schedules\nepic: epic naming component:default\/billing-worker · full page · /,
    );
  });

  it('a task before --changed searches beside the change; --changed takes every path up to the next flag', () => {
    const run = wsctx([
      'context',
      'add a retry to the dunning schedule',
      '--changed',
      `${BW}/src/dunning/schedule.ts`,
      'payments-platform/services/ledger-service/proto/ledger.proto',
      '--workspace',
      EXAMPLE_WORKSPACE,
      '--json',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as GetContextOutput;
    assert.equal(out.task, 'add a retry to the dunning schedule');
    assert.deepEqual(
      out.changes!.entities.map((e) => e.ref),
      ['api:default/ledger-api', 'component:default/billing-worker', 'component:default/ledger-service'],
    );
  });

  it('--diff reads each repository of a clone folder with git: the working tree with untracked files, --staged, a range', () => {
    const ws = copyExampleWorkspace({ git: true });
    const pp = path.join(ws, 'payments-platform');
    git(pp, ['checkout', '-q', '-b', 'smart-dunning']);
    fs.appendFileSync(path.join(pp, 'services/invoice-api/openapi.yaml'), '# credit note reasons follow\n');
    commitAll(pp, 'invoice-rest-api: credit note reasons', 1_800_000_000);
    fs.appendFileSync(path.join(pp, 'services/billing-worker/src/worker.ts'), '// retry\n');
    fs.writeFileSync(path.join(ws, 'storefront', 'apps', 'checkout-web', 'src', 'new.tsx'), 'export {};\n');
    git(path.join(ws, 'storefront'), ['add', 'apps/checkout-web/src/new.tsx']);
    const base = ['--workspace', ws, '--json'];
    const refs = (args: string[]) => {
      const run = wsctx(['context', ...args, ...base]);
      assert.equal(run.code, 0, run.stderr);
      const out = JSON.parse(run.stdout) as GetContextOutput;
      return out.changes!.entities.map((e) => e.ref);
    };
    assert.deepEqual(refs(['--diff']), ['component:default/billing-worker', 'component:default/checkout-web']);
    assert.deepEqual(refs(['--diff', '--staged']), ['component:default/checkout-web']);
    assert.deepEqual(refs(['--diff', 'main...smart-dunning']), [
      'api:default/invoice-rest-api',
      'component:default/invoice-api',
    ]);
  });

  it('refuses what it cannot do, before indexing anything', () => {
    const refused = (args: string[], message: RegExp) => {
      const run = wsctx(['context', ...args, '--workspace', EXAMPLE_WORKSPACE]);
      assert.equal(run.code, 1, run.stdout);
      assert.match(run.stderr, message);
    };
    refused(
      ['--changed', 'a.ts', '--diff'],
      /--changed and --diff: give the changed files or let git show the change, not both/,
    );
    refused(
      ['--diff=--output=/tmp/x'],
      /--diff: "--output=\/tmp\/x" starts with "-", which git would read as an option/,
    );
    refused(['--diff', 'HEAD;id'], /--diff: "HEAD;id" holds characters no revision range is written with/);
    refused(
      ['--staged', '--diff', 'HEAD~1'],
      /--staged and --diff HEAD~1: the staged changes are compared with HEAD; give one/,
    );
    refused([], /context takes a task/);
  });
});
