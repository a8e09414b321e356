import assert from 'node:assert/strict';
import {
  classifyLibraryPath,
  isFolderDescriptionPath,
  isPackPath,
  libraryNamespace,
  quoteBareGlobs,
} from '../../../../server/src/engine/sources/instructionFormats';

describe('sources/instructionFormats', () => {
  it('classifies every library file by origin format, namespace and default type', () => {
    const table: [string, string | null, string | undefined, string][] = [
      ['.context/instructions.md', 'context-page', 'instructions', ''],
      ['.context/intro.md', 'context-page', undefined, ''],
      ['.context/sales/battlecards/acme.md', 'context-page', undefined, 'sales'],
      ['repos/web/.context/guides/x.md', 'context-page', undefined, 'guides'],
      ['.context/sales/instructions.md', 'context-page', undefined, 'sales'],
      ['AGENTS.md', 'agents-md', 'instructions', ''],
      ['a/b/AGENTS.md', 'agents-md', 'instructions', ''],
      ['CLAUDE.md', 'claude-md', 'instructions', ''],
      ['.github/copilot-instructions.md', 'copilot-instructions', 'instructions', ''],
      ['web/.github/copilot-instructions.md', 'copilot-instructions', 'instructions', ''],
      ['.github/instructions/ts.instructions.md', 'instructions-md', 'instructions', ''],
      ['.github/instructions/lang/py.instructions.md', 'instructions-md', 'instructions', ''],
      ['.cursor/rules/api.mdc', 'cursor-mdc', 'instructions', ''],
      ['.cursor/rules/backend/db.mdc', 'cursor-mdc', 'instructions', ''],
      ['.windsurf/rules/api.md', 'windsurf-md', 'instructions', ''],
      ['web/.windsurf/rules/nextjs/best-practices.md', 'windsurf-md', 'instructions', ''],
    ];
    for (const [path, format, type, namespace] of table) {
      const kind = classifyLibraryPath(path);
      assert.deepEqual([kind?.format, kind?.defaultType, kind?.namespace], [format, type, namespace], path);
    }
    assert.equal(classifyLibraryPath('.context/instructions.md')?.teamInstructions, true);
    for (const path of [
      'agents.md',
      'docs/AGENTS.markdown',
      '.github/instructions/ts.md',
      '.github/copilot.md',
      '.cursor/rules/a.md',
      '.cursor/a.mdc',
      '.windsurf/rules/a.mdc',
      '.windsurf/workflows/a.md',
      '.context/folder.yaml',
      '.context',
    ]) {
      assert.equal(classifyLibraryPath(path), null, path);
    }
  });

  it('recognises folder descriptions and packs', () => {
    assert.equal(isFolderDescriptionPath('.context/folder.yaml'), true);
    assert.equal(isFolderDescriptionPath('x/.context/a/b/folder.yml'), true);
    assert.equal(isFolderDescriptionPath('docs/folder.yaml'), false);
    assert.equal(isPackPath('.context/packs/release.yaml'), true);
    assert.equal(isPackPath('.context/packs/sub/release.yaml'), false);
    assert.equal(isPackPath('.context/release.yaml'), false);
    assert.equal(libraryNamespace('.context/ops/runbooks/folder.yaml'), 'ops');
    assert.equal(libraryNamespace('.context/folder.yaml'), '');
  });

  it('quotes bare globs in front matter only, keeping the line count', () => {
    const text = "---\napplyTo: **/*.ts\nglobs: *.tsx, it's\ndescription: *x\n---\napplyTo: **/*.md\n";
    assert.equal(
      quoteBareGlobs(text),
      "---\napplyTo: '**/*.ts'\nglobs: '*.tsx, it''s'\ndescription: *x\n---\napplyTo: **/*.md\n",
    );
    assert.equal(quoteBareGlobs('applyTo: **/*.ts\n'), 'applyTo: **/*.ts\n');
    assert.equal(
      quoteBareGlobs("---\r\napplyTo: '**'\r\nglobs: *.ts\r\n---\r\n"),
      "---\r\napplyTo: '**'\r\nglobs: '*.ts'\r\n---\r\n",
    );
  });
});
