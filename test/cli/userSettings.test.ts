/**
 * The user's own parts of get_context, reachable from the command line and `.wsctx.yaml`: a
 * private notes folder outside the workspace (refused inside it, and by `serve`, whose
 * connections are shared), and the organisation named in "Instructions from the ... team".
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { wsctx } from '../helpers/cli';
import { copyExampleWorkspace, removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

const TASK = 'prepare the quarterly review of the Ostrava acquirer contract';

describe('wsctx: private notes and the organisation name (flags and .wsctx.yaml)', function () {
  this.timeout(120_000);
  let ws: string;
  let notes: string;
  before(() => {
    ws = copyExampleWorkspace();
    notes = tempDir('my-notes');
    write(notes, 'ostrava.md', '---\ntitle: Ostrava acquirer contract\n---\n\n# Ostrava acquirer contract\n\n## Quarterly review\n\nFor the quarterly review of the Ostrava acquirer contract, bring the chargeback ratio and the renewal date.\n');
  });
  after(removeTempDirs);

  const context = (args: string[], cwd?: string) => wsctx(['context', TASK, '--workspace', ws, '--json', ...args], { cwd });

  it('--private-notes adds the user\'s note to the bundle, labelled as theirs; without it the note never comes', () => {
    const without = context([]);
    assert.equal(without.code, 0, without.stderr);
    assert.deepEqual(JSON.parse(without.stdout).pages.filter((p: { path: string }) => p.path.startsWith('~notes/')), []);
    const mine = context(['--private-notes', notes]);
    assert.equal(mine.code, 0, mine.stderr);
    const pages = JSON.parse(mine.stdout).pages as { path: string; title: string; private: boolean }[];
    assert.deepEqual(pages.filter((p) => p.private).map((p) => [p.path, p.title]), [['~notes/ostrava.md', 'Ostrava acquirer contract']]);
    const md = wsctx(['context', TASK, '--workspace', ws, '--private-notes', notes]);
    assert.match(md.stdout, /\n## Ostrava acquirer contract\n[a-z]+ · your own private note · /);
  });

  it('refuses a notes folder inside the workspace, or one that is no folder, naming the flag', () => {
    const inside = context(['--private-notes', path.join(ws, '.context')]);
    assert.equal(inside.code, 1);
    assert.equal(inside.stderr, `wsctx: --private-notes: ${path.join(ws, '.context')} is inside the served folder ${ws}; private notes must live outside the workspace (everything in it is indexed for everyone who reads it)\n`);
    const missing = context(['--private-notes', path.join(notes, 'nope')]);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, `wsctx: --private-notes: ${path.join(notes, 'nope')} is not a folder\n`);
    const serve = wsctx(['serve', '--workspace', ws, '--private-notes', notes]);
    assert.equal(serve.code, 1);
    assert.match(serve.stderr, /^wsctx: --private-notes: wsctx serve answers anyone who holds its token/);
  });

  it('--organization names the team the instructions come from; the default is the folder name', () => {
    const plain = wsctx(['context', TASK, '--workspace', ws]);
    assert.match(plain.stdout, new RegExp(`^# Instructions from the ${path.basename(ws)} team\\n`));
    const named = wsctx(['context', TASK, '--workspace', ws, '--organization', 'Fernhill']);
    assert.match(named.stdout, /^# Instructions from the Fernhill team\n/);
    const bad = wsctx(['context', TASK, '--workspace', ws, '--organization', 'a\nb']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^wsctx: --organization: expected one line of at most 200 characters\n/);
  });

  it('reads both from .wsctx.yaml (a relative notes folder from the workspace root), and the flags win', () => {
    const configured = copyExampleWorkspace();
    write(configured, '.wsctx.yaml', `organization: Fernhill Payments\nprivateNotes:\n  folder: ${path.relative(configured, notes)}\n`);
    const run = wsctx(['context', TASK, '--workspace', configured, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as { organization: string; pages: { path: string; private: boolean }[] };
    assert.equal(out.organization, 'Fernhill Payments');
    assert.deepEqual(out.pages.filter((p) => p.private).map((p) => p.path), ['~notes/ostrava.md']);
    assert.equal(JSON.parse(wsctx(['context', TASK, '--workspace', configured, '--json', '--organization', 'Other']).stdout).organization, 'Other');

    write(configured, '.wsctx.yaml', 'privateNotes:\n  folder: .context/guides\n');
    const inside = wsctx(['context', TASK, '--workspace', configured]);
    assert.equal(inside.code, 1);
    assert.match(inside.stderr, /^wsctx: privateNotes\.folder \(\.wsctx\.yaml\): .*\.context\/guides is inside the served folder /);
  });
});
