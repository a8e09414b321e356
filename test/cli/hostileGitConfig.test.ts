/**
 * A workspace's own `.git/config` is untrusted input: every key git-config(1) lets name a program
 * is set, in a repository of its own, to a script that leaves a marker file; then the real CLI
 * indexes the workspace and answers a question as of a date (the asOf path: rev-parse, log,
 * ls-tree, cat-file) and the marker of each key must never appear.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { wsctx } from '../helpers/cli';
import { commitAll, initRepo, removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

interface HostileCase {
  /** The key (or keys) under test; also names the repository and the marker. */
  key: string;
  /** `git config` entries to add; `$RUN` is replaced with the marker script's path. */
  config: [string, string][];
  /** Files to add to the repository before it is committed (`$RUN` replaced as well). */
  files?: Record<string, string>;
}

const CASES: HostileCase[] = [
  { key: 'core.fsmonitor', config: [['core.fsmonitor', '$RUN']] },
  { key: 'core.hooksPath', config: [['core.hooksPath', '$HOOKS']] },
  { key: 'hooks in .git/hooks', config: [] },
  {
    key: 'filter.<driver>.clean',
    config: [
      ['filter.evil.clean', '$RUN'],
      ['filter.evil.required', 'true'],
    ],
    files: { '.gitattributes': '* filter=evil\n' },
  },
  {
    key: 'filter.<driver>.process',
    config: [['filter.evil.process', '$RUN']],
    files: { '.gitattributes': '* filter=evil\n' },
  },
  {
    key: 'filter.<driver>.smudge',
    config: [['filter.evil.smudge', '$RUN']],
    files: { '.gitattributes': '* filter=evil\n' },
  },
  {
    key: 'diff.<driver>.textconv',
    config: [['diff.evil.textconv', '$RUN']],
    files: { '.gitattributes': '* diff=evil\n' },
  },
  {
    key: 'diff.<driver>.command',
    config: [['diff.evil.command', '$RUN']],
    files: { '.gitattributes': '* diff=evil\n' },
  },
  { key: 'diff.external', config: [['diff.external', '$RUN']] },
  { key: 'core.pager', config: [['core.pager', '$RUN']] },
  {
    key: 'pager.<command>',
    config: [
      ['pager.log', '$RUN'],
      ['pager.status', '$RUN'],
      ['pager.config', '$RUN'],
      ['pager.ls-tree', '$RUN'],
    ],
  },
  {
    key: 'core.editor',
    config: [
      ['core.editor', '$RUN'],
      ['sequence.editor', '$RUN'],
    ],
  },
  { key: 'core.askPass', config: [['core.askPass', '$RUN']] },
  { key: 'credential.helper', config: [['credential.helper', '!$RUN']] },
  {
    key: 'core.sshCommand',
    config: [
      ['core.sshCommand', '$RUN'],
      ['remote.origin.url', 'ssh://example.invalid/repo.git'],
    ],
  },
  {
    key: 'core.gitProxy',
    config: [
      ['core.gitProxy', '$RUN'],
      ['remote.origin.url', 'git://example.invalid/repo.git'],
    ],
  },
  {
    key: 'remote ext:: transport',
    config: [
      ['protocol.ext.allow', 'always'],
      ['remote.origin.url', 'ext::$RUN'],
    ],
  },
  { key: 'core.alternateRefsCommand', config: [['core.alternateRefsCommand', '$RUN']] },
  { key: 'uploadpack.packObjectsHook', config: [['uploadpack.packObjectsHook', '$RUN']] },
  {
    key: 'gpg.program',
    config: [
      ['log.showSignature', 'true'],
      ['gpg.program', '$RUN'],
      ['gpg.openpgp.program', '$RUN'],
      ['gpg.x509.program', '$RUN'],
    ],
  },
  {
    key: 'gpg.ssh.program',
    config: [
      ['log.showSignature', 'true'],
      ['gpg.format', 'ssh'],
      ['gpg.ssh.program', '$RUN'],
      ['gpg.ssh.defaultKeyCommand', '$RUN'],
    ],
  },
  { key: 'interactive.diffFilter', config: [['interactive.diffFilter', '$RUN']] },
  {
    key: 'alias shadowing a command',
    config: [
      ['alias.status', '!$RUN'],
      ['alias.log', '!$RUN'],
      ['alias.config', '!$RUN'],
    ],
  },
  { key: 'include.path', config: [['include.path', '$INCLUDE']] },
  { key: 'includeIf.gitdir', config: [['includeIf.gitdir:/.path', '$INCLUDE']] },
  {
    key: 'merge and tool drivers',
    config: [
      ['merge.evil.driver', '$RUN'],
      ['mergetool.evil.cmd', '$RUN'],
      ['difftool.evil.cmd', '$RUN'],
      ['merge.tool', 'evil'],
      ['diff.tool', 'evil'],
    ],
  },
];

/** Hook names git could run while reading or refreshing the index. */
const HOOKS = [
  'post-index-change',
  'reference-transaction',
  'post-checkout',
  'pre-auto-gc',
  'fsmonitor-watchman',
  'post-rewrite',
];

function slug(key: string): string {
  return key
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
}

describe('a .git/config that names programs runs none of them (real CLI)', function () {
  this.timeout(180_000);
  let ws: string;
  let marks: string;
  let index: { code: number; stderr: string; stdout: string };
  let asOf: { code: number; stderr: string; stdout: string };
  let warm: { code: number; stderr: string; stdout: string };
  let trace: string;

  before(() => {
    ws = tempDir('hostile-git');
    marks = tempDir('hostile-marks');
    for (const c of CASES) {
      const name = slug(c.key);
      const repo = initRepo(path.join(ws, 'repos', name));
      const script = write(marks, `bin/${name}.sh`, `#!/bin/sh\ntouch '${path.join(marks, name)}'\ncat\n`);
      fs.chmodSync(script, 0o755);
      const hooks = path.join(marks, `hooks-${name}`);
      for (const hook of HOOKS)
        fs.chmodSync(write(hooks, hook, `#!/bin/sh\ntouch '${path.join(marks, name)}'\n`), 0o755);
      const include = write(marks, `include-${name}.cfg`, `[core]\n\tfsmonitor = ${script}\n\tpager = ${script}\n`);
      const expand = (value: string) =>
        value.replace('$RUN', script).replace('$HOOKS', hooks).replace('$INCLUDE', include);
      write(
        repo,
        'catalog-info.yaml',
        `apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: svc-${name}\nspec:\n  type: service\n  owner: team-a\n  lifecycle: production\n`,
      );
      write(repo, 'overview.md', `# svc-${name}\n\nThe ${name} service handles refunds.\n`);
      for (const [file, text] of Object.entries(c.files ?? {})) write(repo, file, expand(text));
      commitAll(repo, 'first', 1_700_000_000);
      if (c.key === 'hooks in .git/hooks') {
        for (const hook of HOOKS) fs.copyFileSync(path.join(hooks, hook), path.join(repo, '.git', 'hooks', hook));
        for (const hook of HOOKS) fs.chmodSync(path.join(repo, '.git', 'hooks', hook), 0o755);
      }
      // Written after the commit: appended to .git/config as any extracted archive would carry it.
      const lines = c.config.map(([key, value]) => {
        const dot = key.lastIndexOf('.');
        const section = key.slice(0, dot);
        const first = section.indexOf('.');
        const header = first < 0 ? `[${section}]` : `[${section.slice(0, first)} "${section.slice(first + 1)}"]`;
        return `${header}\n\t${key.slice(dot + 1)} = ${expand(value)}\n`;
      });
      fs.appendFileSync(path.join(repo, '.git', 'config'), lines.join(''));
      // Same size, new stat data: git status must read these files again (a clean filter's moment).
      write(repo, 'overview.md', `# svc-${name}\n\nThe ${name} service handles refundS.\n`);
      fs.utimesSync(path.join(repo, 'catalog-info.yaml'), new Date(), new Date(Date.now() + 5000));
    }
    index = wsctx(['index', '--workspace', ws, '--no-cache']);
    asOf = wsctx(['ask', 'refunds service', '--workspace', ws, '--no-cache', '--as-of', '2030-01-01']);
    // A warm start: the snapshot of the first command, then git asked what changed, the
    // repositories in batches through `git for-each-repo` (gitStatuses.ts).
    const cache = { WSCTX_CACHE_DIR: tempDir('hostile-cache') };
    wsctx(['index', '--workspace', ws], { env: cache });
    trace = path.join(tempDir('hostile-trace'), 'trace.log');
    warm = wsctx(['ask', 'refunds service', '--workspace', ws], { env: { ...cache, GIT_TRACE: trace } });
  });
  after(removeTempDirs);

  it('indexes every repository and answers as of a date', () => {
    assert.equal(index.code, 0, index.stderr);
    assert.match(index.stdout, new RegExp(`Repositories \\(${CASES.length + 1}\\)`));
    // Git still ran in every one (a git that fails outright would run no marker either).
    for (const c of CASES) assert.match(index.stdout, new RegExp(`repos/${slug(c.key)}\\s+[0-9a-f]{12}\\n`), c.key);
    assert.equal(asOf.code, 0, asOf.stderr);
    assert.match(asOf.stdout, /refunds/i);
    assert.equal(warm.code, 0, warm.stderr);
    assert.match(warm.stdout, /refunds/i);
    assert.match(fs.readFileSync(trace, 'utf8'), /for-each-repo --config=wsctx\.r[0-9a-f]{16} status/);
  });

  for (const c of CASES) {
    it(`runs nothing named by ${c.key}`, () => {
      assert.equal(fs.existsSync(path.join(marks, slug(c.key))), false, `${c.key}: the marker script ran`);
    });
  }

  it('the marker scripts do run when git itself is asked to (the test can fail)', () => {
    const probe = path.join(ws, 'repos', slug('core.fsmonitor'));
    const { execFileSync } = require('node:child_process') as typeof import('node:child_process');
    execFileSync('git', ['status', '--porcelain'], {
      cwd: probe,
      stdio: 'ignore',
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
    });
    assert.equal(fs.existsSync(path.join(marks, slug('core.fsmonitor'))), true);
  });
});
