import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_SETTINGS, normalizeSettings } from '../../../shared/settings';
import {
  formatConfigProblem,
  layerSettings,
  parseWorkspaceConfig,
  readWorkspaceConfig,
} from '../../../server/src/config/workspaceConfig';
import { removeTempDirs, tempDir, write } from '../../helpers/tempWorkspace';

describe('config/workspaceConfig (.wsctx.yaml)', () => {
  after(removeTempDirs);

  it("reads the editor's keys, nested or dotted, checked as the editor checks them", () => {
    const config = parseWorkspaceConfig(
      '/ws/.wsctx.yaml',
      [
        'sources:',
        '  catalog: ["**/catalog-info.yaml", "catalog/**/*.yaml"]',
        '  ignore: ["**/fixtures/**"]',
        'embeddings: { provider: off }',
        'budgets.getContextMaxTokens: 8000',
        'judge:',
        '  mode: shadow',
        'vectorIndex: hnswlib',
      ].join('\n'),
    );
    assert.deepEqual(config.problems, []);
    assert.deepEqual(config.values, {
      'sources.catalog': ['**/catalog-info.yaml', 'catalog/**/*.yaml'],
      'sources.ignore': ['**/fixtures/**'],
      'embeddings.provider': 'off',
      'budgets.getContextMaxTokens': 8000,
      'judge.mode': 'shadow',
      vectorIndex: 'hnswlib',
    });
  });

  it('names the file, the line and the key of every problem, and applies the rest', () => {
    const config = parseWorkspaceConfig(
      '/ws/.wsctx.yaml',
      [
        'sources:',
        '  catalogs: ["x"]',
        '  catalog: "not a list"',
        '  ignore: ["a/**"]',
        'budgets:',
        '  expandEdges: 500',
        'embedings: off',
        'mcp: true',
        'vectorIndex: faiss',
      ].join('\n'),
    );
    assert.deepEqual(config.problems.map(formatConfigProblem), [
      '/ws/.wsctx.yaml:2: sources.catalogs: unknown setting; sources holds catalog, overview, epics, library, agentsMd, copilotInstructions, instructionFiles, claudeMd, cursorRules, windsurfRules, techdocs, docs, siteNav, markdown, catalogTargets, placeholderTargets, runHealth, ignore',
      '/ws/.wsctx.yaml:3: sources.catalog: expected a list of glob strings; not applied',
      '/ws/.wsctx.yaml:6: budgets.expandEdges: expected a whole number from 1 to 100 (got 500); not applied',
      '/ws/.wsctx.yaml:7: embedings: unknown setting; the file holds sources, embeddings, judge, budgets, mcp, privateNotes, organization, vectorIndex',
      '/ws/.wsctx.yaml:8: mcp: expected a mapping of http',
      '/ws/.wsctx.yaml:9: vectorIndex: expected one of hnsw, hnswlib, exact (got "faiss"); not applied',
    ]);
    assert.deepEqual(config.values, { 'sources.ignore': ['a/**'] });
    const broken = parseWorkspaceConfig('/ws/.wsctx.yaml', 'sources:\n  catalog: [unclosed\n');
    assert.equal(broken.problems.length, 1);
    assert.match(
      formatConfigProblem(broken.problems[0]),
      /^\/ws\/\.wsctx\.yaml:\d+: YAML error: .*; the file is not applied$/,
    );
  });

  it('layers defaults, then the file, then host settings that differ from their defaults', () => {
    const config = parseWorkspaceConfig(
      '/ws/.wsctx.yaml',
      'sources: { ignore: ["gen/**"] }\nembeddings: { provider: off }\nbudgets: { expandEdges: 20 }\n',
    );
    const editor = normalizeSettings({ budgets: { expandEdges: 30 }, embeddings: { provider: 'local' } }).settings;
    const layered = layerSettings(config, editor);
    assert.deepEqual(layered.sources.ignore, ['gen/**']);
    // The editor's `local` is its default, so the file's `off` stands; its 30 is not, so it wins.
    assert.equal(layered.embeddings.provider, 'off');
    assert.equal(layered.budgets.expandEdges, 30);
    assert.deepEqual(layered.sources.catalog, DEFAULT_SETTINGS.sources.catalog);
  });

  it("reads the file at a folder's root, none when absent, and never follows a symbolic link", () => {
    const dir = tempDir('config');
    assert.deepEqual(readWorkspaceConfig(dir), { path: null, values: {}, problems: [] });
    write(dir, '.wsctx.yaml', 'judge: { mode: off }\n');
    assert.deepEqual(readWorkspaceConfig(dir).values, { 'judge.mode': 'off' });
    const linked = tempDir('config-link');
    fs.symlinkSync(path.join(dir, '.wsctx.yaml'), path.join(linked, '.wsctx.yaml'));
    const read = readWorkspaceConfig(linked);
    assert.deepEqual(read.values, {});
    assert.match(read.problems[0].message, /is a symbolic link, which is not followed/);
  });
});
