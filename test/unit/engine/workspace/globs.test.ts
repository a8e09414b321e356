import * as assert from 'node:assert/strict';
import {
  compileSourceGlobs,
  DEFAULT_SOURCE_GLOBS,
  inSkippedDir,
  resolveSourceGlobs,
} from '../../../../server/src/engine/workspace/globs';

describe('engine/workspace/globs', () => {
  const matcher = compileSourceGlobs();
  const roles = (p: string): string => matcher.roles(p).join(',');

  it('gives each default source file its roles', () => {
    const cases: [string, string][] = [
      ['catalog-info.yaml', 'catalog,catalogTargets'],
      ['services/pay/catalog-info.yml', 'catalog,catalogTargets'],
      ['overview.md', 'overview,docs,markdown'],
      ['OVERVIEW.MD', 'overview'],
      ['Overview.md', 'overview,docs,markdown'],
      ['docs/overview.md', 'docs,markdown'],
      ['README.md', 'overview,docs,markdown'],
      ['plugins/foo/readme.md', 'overview,docs,markdown'],
      ['plugins/foo/docs/guides/setup.md', 'docs,markdown'],
      ['epics/2024/q1/checkout.md', 'epics,docs,markdown'],
      ['plans/epics/a.md', 'epics,docs,markdown'],
      ['plans/billing.epic.md', 'epics,docs,markdown'],
      ['.context/rules/style.md', 'library,docs,markdown'],
      ['.context/packs/review.yaml', 'library,catalogTargets'],
      ['.context/files/.hidden.txt', 'library'],
      ['.context/instructions.md', 'library,docs,markdown'],
      ['AGENTS.md', 'agentsMd,docs,markdown'],
      ['packages/ui/AGENTS.md', 'agentsMd,docs,markdown'],
      ['agents.md', 'docs,markdown'],
      ['.github/copilot-instructions.md', 'copilotInstructions,docs,markdown'],
      ['.github/instructions/ts.instructions.md', 'instructionFiles,docs,markdown'],
      ['.github/instructions/nested/ts.instructions.md', 'instructionFiles,docs,markdown'],
      ['apps/web/.github/copilot-instructions.md', 'copilotInstructions,docs,markdown'],
      ['apps/web/.context/rules/style.md', 'library,docs,markdown'],
      ['CLAUDE.md', 'claudeMd,docs,markdown'],
      ['web/CLAUDE.md', 'claudeMd,docs,markdown'],
      ['.cursor/rules/react.mdc', 'cursorRules'],
      ['.cursor/rules/web/react.mdc', 'cursorRules'],
      ['.windsurf/rules/react.md', 'windsurfRules,docs,markdown'],
      ['apps/web/.windsurf/rules/nextjs/best-practices.md', 'windsurfRules,docs,markdown'],
      ['.windsurf/workflows/release.md', 'docs,markdown'],
      ['mkdocs.yml', 'techdocs,catalogTargets'],
      ['services/pay/mkdocs.yaml', 'techdocs,catalogTargets'],
      ['.github/workflows/ci.yml', 'catalogTargets'],
      ['services/ledger/proto/ledger.proto', 'placeholderTargets'],
      ['apis/schema.json', 'placeholderTargets'],
      ['src/index.ts', ''],
      ['README.txt', ''],
      // Documentation by content, wherever it sits and whatever its folder is called.
      ['Documentation/content/en/docs/concepts/pods.md', 'docs,markdown'],
      ['website/docs/intro.mdx', 'docs'],
      ['doc/source/install.rst', 'docs'],
      ['modules/ROOT/pages/index.adoc', 'docs'],
      ['CONTRIBUTING.md', 'docs,markdown'],
      ['notes.markdown', 'docs'],
    ];
    for (const [p, expected] of cases) assert.equal(roles(p), expected, p);
    assert.equal(matcher.isCandidate('src/index.ts'), false);
    assert.equal(matcher.isCandidate('CLAUDE.md'), true);
  });

  it('overrides any field and keeps the others', () => {
    const custom = compileSourceGlobs({
      markdown: [],
      docs: [],
      catalogTargets: [],
      overview: ['README.md'],
      library: ['.context/**', 'handbook/**/*.md'],
      ignore: ['**/fixtures/**', 'archive'],
    });
    assert.equal(custom.roles('readme.md').join(','), 'overview');
    assert.equal(custom.roles('overview.md').join(','), '');
    assert.equal(custom.roles('handbook/ops/oncall.md').join(','), 'library');
    assert.equal(custom.roles('catalog-info.yaml').join(','), 'catalog');
    assert.equal(custom.isIgnored('test/fixtures'), true);
    assert.equal(custom.isIgnored('test/fixtures/a/AGENTS.md'), true);
    assert.equal(custom.isIgnored('archive'), true);
    assert.equal(custom.isIgnored('archive/x.md'), false);
    assert.equal(custom.isIgnored(''), false);
    assert.deepEqual(resolveSourceGlobs({ epics: undefined }).epics, DEFAULT_SOURCE_GLOBS.epics);
    assert.deepEqual(DEFAULT_SOURCE_GLOBS.ignore, []);
  });

  it('recognises always-skipped directories by whole segment', () => {
    assert.equal(inSkippedDir('node_modules/x/AGENTS.md'), true);
    assert.equal(inSkippedDir('a/.git/config'), true);
    assert.equal(inSkippedDir('my_node_modules/AGENTS.md'), false);
  });
});
