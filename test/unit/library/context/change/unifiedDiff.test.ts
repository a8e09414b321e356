import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  parseUnifiedDiff,
  prefixDiffPaths,
  untrackedFileHeader,
} from '../../../../../server/src/library/context/change/unifiedDiff';

const DIFFS = path.resolve(__dirname, '../../../../../bench/corpora/changes/diffs');

describe('unified diffs (library/context/change/unifiedDiff.ts)', () => {
  it('reads git diff output: files, status, counts and the exact lines changed', () => {
    const parsed = parseUnifiedDiff(
      [
        'diff --git a/src/app.ts b/src/app.ts',
        'index 1111111..2222222 100644',
        '--- a/src/app.ts',
        '+++ b/src/app.ts',
        '@@ -10,4 +10,5 @@ export function run() {',
        ' keep',
        '-old line',
        '+new line',
        '+another',
        ' keep',
        ' keep',
        'diff --git a/docs/new.md b/docs/new.md',
        'new file mode 100644',
        'index 0000000..3333333',
        '--- /dev/null',
        '+++ b/docs/new.md',
        '@@ -0,0 +1,2 @@',
        '+# New',
        '+--- not a header: content of the hunk',
        'diff --git a/gone.txt b/gone.txt',
        'deleted file mode 100644',
        '--- a/gone.txt',
        '+++ /dev/null',
        '@@ -1 +0,0 @@',
        '-bye',
        'diff --git a/logo.png b/logo.png',
        'Binary files a/logo.png and b/logo.png differ',
        '',
      ].join('\n'),
    );
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(
      parsed.files.map((f) => [f.path, f.status, f.added, f.removed, f.binary]),
      [
        ['src/app.ts', 'modified', 2, 1, false],
        ['docs/new.md', 'added', 2, 0, false],
        ['gone.txt', 'deleted', 0, 1, false],
        ['logo.png', 'modified', 0, 0, true],
      ],
    );
    assert.deepEqual(parsed.files[0].addedLines, [[11, 12]]);
    assert.deepEqual(parsed.files[0].removedLines, [[11, 11]]);
    assert.deepEqual(parsed.files[0].hunks, [{ oldStart: 10, oldLines: 4, newStart: 10, newLines: 5 }]);
  });

  it('reads renames, quoted names, --no-prefix diffs, diff -u and git show headers', () => {
    const renamed = parseUnifiedDiff(
      [
        'commit 0123456789abcdef',
        'Author: A <a@example.com>',
        '',
        '    move the runbook',
        '',
        'diff --git a/docs/old name.md b/docs/runbooks/new name.md',
        'similarity index 90%',
        'rename from docs/old name.md',
        'rename to docs/runbooks/new name.md',
        '--- a/docs/old name.md',
        '+++ b/docs/runbooks/new name.md',
        '@@ -1 +1 @@',
        '-a',
        '+b',
        'diff --git "a/caf\\303\\251.md" "b/caf\\303\\251.md"',
        '--- "a/caf\\303\\251.md"',
        '+++ "b/caf\\303\\251.md"',
        '@@ -1 +1 @@',
        '-x',
        '+y',
      ].join('\n'),
    );
    assert.deepEqual(renamed.problems, []);
    assert.deepEqual(
      renamed.files.map((f) => [f.path, f.status, f.oldPath]),
      [
        ['docs/runbooks/new name.md', 'renamed', 'docs/old name.md'],
        ['café.md', 'modified', undefined],
      ],
    );
    const plain = parseUnifiedDiff(
      [
        '--- src/a.go\t2026-01-01 10:00:00',
        '+++ src/a.go\t2026-01-02 10:00:00',
        '@@ -1,2 +1,2 @@',
        ' a',
        '-b',
        '+c',
      ].join('\n'),
    );
    assert.deepEqual(
      plain.files.map((f) => [f.path, f.status]),
      [['src/a.go', 'modified']],
    );
  });

  it('never throws on garbage: counts what it cannot read, keeps what it can', () => {
    const parsed = parseUnifiedDiff(
      ['hello', 'diff --git a/x.ts b/x.ts', '--- a/x.ts', '+++ b/x.ts', '@@ -1 +1 @@', '-a', '+b', 'what is this'].join(
        '\n',
      ),
    );
    assert.deepEqual(
      parsed.files.map((f) => f.path),
      ['x.ts'],
    );
    assert.deepEqual(parsed.problems, ['line 8: not part of a unified diff: "what is this"']);
    assert.deepEqual(parseUnifiedDiff('').files, []);
  });

  it('reads the recorded diffs of real commits (bench/corpora/changes/diffs) with no problem', () => {
    const r17 = parseUnifiedDiff(readFileSync(path.join(DIFFS, 'r17.diff'), 'utf8'));
    assert.deepEqual(r17.problems, []);
    assert.deepEqual(
      r17.files.map((f) => [f.path, f.status]),
      [
        ['plugins/backend/backstage-plugin-argo-cd-backend/src/service/argocd.service.ts', 'modified'],
        ['plugins/backend/backstage-plugin-argo-cd-backend/src/service/argocd.test.ts', 'modified'],
        ['plugins/backend/backstage-plugin-argo-cd-backend/src/utils/urlHelpers.test.ts', 'added'],
        ['plugins/backend/backstage-plugin-argo-cd-backend/src/utils/urlHelpers.ts', 'added'],
      ],
    );
    const r04 = parseUnifiedDiff(readFileSync(path.join(DIFFS, 'r04.diff'), 'utf8'));
    assert.deepEqual(
      r04.files.filter((f) => f.status === 'renamed').map((f) => [f.oldPath, f.path]),
      ['argocd.test.ts', 'argocdTestResponses.ts'].map((name) => [
        `plugins/backend/backstage-plugin-argo-cd-backend/src/service/${name}`,
        `plugins/backend/backstage-plugin-argo-cd-node/src/service/${name}`,
      ]),
    );
  });

  it('puts a folder before every path a diff names, and not before hunk content that looks like a header', () => {
    const diff = [
      'diff --git a/x.md b/x.md',
      '--- a/x.md',
      '+++ b/x.md',
      '@@ -1,2 +1,2 @@',
      '--- a/not-a-header',
      '+++ b/not-a-header',
      untrackedFileHeader('new file.txt'),
    ].join('\n');
    const prefixed = prefixDiffPaths(diff, 'payments');
    assert.match(
      prefixed,
      /^diff --git a\/payments\/x\.md b\/payments\/x\.md\n--- a\/payments\/x\.md\n\+\+\+ b\/payments\/x\.md\n/,
    );
    assert.match(prefixed, /\n--- a\/not-a-header\n\+\+\+ b\/not-a-header\n/);
    assert.deepEqual(
      parseUnifiedDiff(prefixed).files.map((f) => [f.path, f.status]),
      [
        ['payments/x.md', 'modified'],
        ['payments/new file.txt', 'added'],
      ],
    );
  });
});
