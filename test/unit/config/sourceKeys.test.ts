/**
 * Every `sources.*` key of `.wsctx.yaml` changes what is read: each case indexes one real
 * workspace twice, with the built-in globs and with the key set in the file, and asserts on the
 * documents (or facts) that the key adds or takes away. A key the loader accepted and the engine
 * ignored fails its case. Keys the loader cannot honour are refused with `file:line: key: message`.
 */
import assert from 'node:assert/strict';
import {
  engineGlobsFrom,
  formatConfigProblem,
  layerSettings,
  parseWorkspaceConfig,
} from '../../../server/src/config/workspaceConfig';
import { Engine } from '../../../server/src/engine/engine';
import type { IndexState } from '../../../server/src/engine/indexState';
import { SETTING_SPECS } from '../../../shared/settings';
import { removeTempDirs, tempDir, write } from '../../helpers/tempWorkspace';

/** A workspace with one file for each thing a key can add or take away. */
const FILES: Record<string, string> = {
  'catalog-info.yaml': entity('Component', 'default-catalog'),
  'org/teams.yaml': [
    'apiVersion: backstage.io/v1alpha1',
    'kind: Group',
    'metadata:',
    '  name: platform-team',
    'spec:',
    '  type: team',
    '  children: []',
    '',
  ].join('\n'),
  'README.md': '# Readme\nThe repository.\n',
  'ABOUT.md': '# About\nWhat this repository is.\n',
  'epics/checkout.md': '# Checkout epic\nOne-page checkout.\n',
  'plans/q1.md': '# Q1 plan\nThe quarter.\n',
  'notes/plan.md': '---\nkind: epic\n---\n# Front matter epic\nPlanned.\n',
  '.context/rules/style.md': '# Style\nUse short sentences.\n',
  'handbook/oncall.md': '# On call\nPage the owner.\n',
  'AGENTS.md': '# Agents\nRun the tests.\n',
  'CLAUDE.md': '# Claude\nRun the linter.\n',
  '.github/copilot-instructions.md': '# Copilot\nPrefer small diffs.\n',
  '.github/instructions/ts.instructions.md': '---\napplyTo: "**/*.ts"\n---\n# TypeScript\nStrict mode.\n',
  '.cursor/rules/react.mdc': '---\ndescription: React\n---\n# React\nHooks only.\n',
  'rules/go.mdc': '# Go\nGofmt.\n',
  '.windsurf/rules/vue/best-practices.md': '# Vue Best Practices\nScript setup.\n',
  'rules/svelte.md': '# Svelte\nRunes.\n',
  'site/mkdocs.yml': 'site_name: Site\ndocs_dir: pages\nnav:\n  - Home: index.md\n  - Gone: gone.md\n',
  'site/pages/index.md': '# Site home\nWelcome.\n',
  'docs/guide.md': '# Guide\nHow to.\n',
  'website/sidebars.js': "module.exports = { docs: [{ type: 'doc', id: 'intro', label: 'Start here' }] };\n",
  'website/docs/intro.md': 'A page with no heading of its own.\n',
  'drafts/wip.md': '---\nkind: epic\n---\n# Draft epic\nNot ready.\n',
  '.wsctx/run-health.json': JSON.stringify({ status: 'failed' }),
  'ci/verdict.json': JSON.stringify({ status: 'succeeded' }),
  'locations.yaml': [
    'apiVersion: backstage.io/v1alpha1',
    'kind: Location',
    'metadata:',
    '  name: teams',
    'spec:',
    '  targets: ["./teams/a.yml"]',
    '',
  ].join('\n'),
  'teams/a.yml': [
    'apiVersion: backstage.io/v1alpha1',
    'kind: Group',
    'metadata:',
    '  name: located-team',
    'spec:',
    '  type: team',
    '  children: []',
    '',
  ].join('\n'),
  'api/catalog-info.yaml': [
    'apiVersion: backstage.io/v1alpha1',
    'kind: API',
    'metadata:',
    '  name: schema-api',
    'spec:',
    '  type: openapi',
    '  lifecycle: production',
    '  owner: platform-team',
    '  definition:',
    '    $text: ./schema.json',
    '',
  ].join('\n'),
  'api/schema.json': '{"openapi": "3.0.0"}',
};

function entity(kind: string, name: string): string {
  return [
    'apiVersion: backstage.io/v1alpha1',
    `kind: ${kind}`,
    'metadata:',
    `  name: ${name}`,
    'spec:',
    '  type: service',
    '  lifecycle: production',
    '  owner: platform-team',
    '',
  ].join('\n');
}

async function indexWith(config: string): Promise<IndexState> {
  const ws = tempDir('keys');
  for (const [rel, text] of Object.entries(FILES)) write(ws, rel, text);
  const parsed = parseWorkspaceConfig(`${ws}/.wsctx.yaml`, config);
  assert.deepEqual(parsed.problems.map(formatConfigProblem), []);
  const engine = new Engine({
    folders: [{ name: 'ws', absPath: ws }],
    embeddings: { provider: 'off' },
    settings: engineGlobsFrom(layerSettings(parsed)),
  });
  try {
    return await engine.waitForIndex();
  } finally {
    engine.dispose();
  }
}

/** `kind path` of every document, sorted. */
function docs(state: IndexState): string[] {
  return [...state.docs.values()].map((d) => `${d.sourceKind} ${d.path}`).sort();
}

/** What each key does: the YAML that sets it, and what must change against the defaults. */
const CASES: Record<string, { yaml: string; check: (custom: IndexState, defaults: IndexState) => void }> = {
  catalog: {
    yaml: "sources:\n  catalog: ['org/*.yaml']\n  catalogTargets: []\n",
    check: (custom, defaults) => {
      assert.ok(defaults.entities.some((e) => e.name === 'default-catalog'));
      assert.deepEqual(custom.entities.map((e) => e.name).sort(), ['platform-team']);
    },
  },
  overview: {
    yaml: "sources:\n  overview: ['ABOUT.md']\n",
    check: (custom, defaults) => {
      assert.deepEqual(
        docs(defaults).filter((d) => d.startsWith('repo_overview')),
        ['repo_overview README.md'],
      );
      assert.deepEqual(
        docs(custom).filter((d) => d.startsWith('repo_overview')),
        ['repo_overview ABOUT.md'],
      );
    },
  },
  epics: {
    yaml: "sources:\n  epics: ['plans/**/*.md']\n",
    check: replaces('epic_doc epics/checkout.md', 'epic_doc plans/q1.md'),
  },
  library: {
    yaml: "sources:\n  library: ['handbook/**/*.md']\n",
    check: replaces('library .context/rules/style.md', 'library handbook/oncall.md'),
  },
  agentsMd: { yaml: 'sources:\n  agentsMd: []\n', check: removes('library AGENTS.md') },
  claudeMd: { yaml: 'sources:\n  claudeMd: []\n', check: removes('library CLAUDE.md') },
  copilotInstructions: {
    yaml: 'sources:\n  copilotInstructions: []\n',
    check: removes('library .github/copilot-instructions.md'),
  },
  instructionFiles: {
    yaml: 'sources:\n  instructionFiles: []\n',
    check: removes('library .github/instructions/ts.instructions.md'),
  },
  cursorRules: {
    yaml: "sources:\n  cursorRules: ['rules/*.mdc']\n",
    check: replaces('library .cursor/rules/react.mdc', 'library rules/go.mdc'),
  },
  windsurfRules: {
    yaml: "sources:\n  windsurfRules: ['rules/*.md']\n",
    check: replaces('library .windsurf/rules/vue/best-practices.md', 'library rules/svelte.md'),
  },
  techdocs: {
    // Without the key mkdocs.yml is no site (its nav is not read); its pages are still read as
    // documentation, by content.
    yaml: 'sources:\n  techdocs: []\n',
    check: (custom, defaults) => {
      const navMissing = (s: IndexState) =>
        s.problems.filter((p) => p.code === 'techdocs.nav-missing-page').map((p) => p.path);
      assert.deepEqual(navMissing(defaults), ['site/mkdocs.yml']);
      assert.deepEqual(navMissing(custom), []);
      assert.ok(docs(custom).includes('catalog_doc site/pages/index.md'));
    },
  },
  docs: {
    // The default reads documentation wherever it sits; the key narrows it.
    yaml: "sources:\n  docs: ['handbook/**/*.md']\n",
    check: (custom, defaults) => {
      assert.ok(docs(defaults).includes('catalog_doc docs/guide.md'), 'the defaults read docs/guide.md');
      assert.ok(docs(defaults).includes('catalog_doc handbook/oncall.md'), 'the defaults read handbook/oncall.md');
      assert.ok(docs(custom).includes('catalog_doc handbook/oncall.md'), 'the key reads handbook/oncall.md');
      assert.ok(!docs(custom).includes('catalog_doc docs/guide.md'), 'the key leaves docs/guide.md out');
    },
  },
  siteNav: {
    yaml: 'sources:\n  siteNav: []\n',
    check: (custom, defaults) => {
      const title = (s: IndexState) => [...s.docs.values()].find((d) => d.path === 'website/docs/intro.md')?.title;
      assert.equal(title(defaults), 'Start here', 'the sidebars label names a page without a title');
      assert.equal(title(custom), 'Intro', 'without the sidebars file, its file name does');
    },
  },
  markdown: { yaml: 'sources:\n  markdown: []\n', check: removes('epic_doc notes/plan.md') },
  catalogTargets: {
    yaml: 'sources:\n  catalogTargets: []\n',
    check: (custom, defaults) => {
      assert.ok(defaults.entities.some((e) => e.name === 'located-team'));
      assert.ok(!custom.entities.some((e) => e.name === 'located-team'));
    },
  },
  placeholderTargets: {
    yaml: 'sources:\n  placeholderTargets: []\n',
    check: (custom, defaults) => {
      const unresolved = (s: IndexState) =>
        s.problems.filter((p) => p.code === 'catalog.placeholder-unresolved').map((p) => p.path);
      assert.deepEqual(unresolved(defaults), []);
      assert.deepEqual(unresolved(custom), ['api/catalog-info.yaml']);
    },
  },
  runHealth: {
    yaml: "sources:\n  runHealth: ['ci/verdict.json']\n",
    check: (custom, defaults) => {
      assert.equal(defaults.runHealth.get('')?.verdict, 'failed');
      assert.equal(custom.runHealth.get('')?.verdict, 'succeeded');
    },
  },
  ignore: { yaml: "sources:\n  ignore: ['drafts/**']\n", check: removes('epic_doc drafts/wip.md') },
};

/** The defaults read `before` and not `after`; the key reads `after` and not `before`. */
function replaces(before: string, after: string): (custom: IndexState, defaults: IndexState) => void {
  return (custom, defaults) => {
    assert.ok(
      docs(defaults).includes(before) && !docs(defaults).includes(after),
      `the defaults read ${before}, not ${after}`,
    );
    assert.ok(docs(custom).includes(after) && !docs(custom).includes(before), `the key reads ${after}, not ${before}`);
  };
}

function removes(doc: string): (custom: IndexState, defaults: IndexState) => void {
  return (custom, defaults) => {
    assert.ok(docs(defaults).includes(doc), `the defaults read ${doc}`);
    assert.ok(!docs(custom).includes(doc), `the key takes ${doc} away`);
  };
}

describe('.wsctx.yaml sources.* keys: each one honoured', function () {
  this.timeout(60_000);
  let defaults: IndexState;
  before(async () => {
    defaults = await indexWith('');
  });
  after(removeTempDirs);

  it('has a case for every sources key the settings declare', () => {
    const keys = SETTING_SPECS.filter((s) => s.key.startsWith('sources.')).map((s) => s.key.slice('sources.'.length));
    assert.deepEqual(Object.keys(CASES).sort(), keys.sort());
  });

  for (const [key, { yaml, check }] of Object.entries(CASES)) {
    it(`sources.${key}`, async () => check(await indexWith(yaml), defaults));
  }

  it('refuses a glob it could never match, naming the file, line and key', () => {
    const config = parseWorkspaceConfig(
      '/ws/.wsctx.yaml',
      "sources:\n  docs: ['./guides/**/*.md']\n  library:\n    - /abs/rules/**\n  epics: ['../plans/*.md']\n  overview: ['docs\\readme.md']\n",
    );
    assert.deepEqual(config.problems.map(formatConfigProblem), [
      "/ws/.wsctx.yaml:4: sources.library: '/abs/rules/**' is an absolute path; source globs match paths relative to each repository root (write it without the leading '/'); not applied",
      "/ws/.wsctx.yaml:5: sources.epics: '../plans/*.md' reaches above the repository root with '..'; source globs match files inside each repository; not applied",
      "/ws/.wsctx.yaml:6: sources.overview: 'docs\\readme.md' separates folders with '\\'; write '/' between folders; not applied",
    ]);
    // A leading ./ means the root: kept, without it.
    assert.deepEqual(config.values['sources.docs'], ['guides/**/*.md']);
  });
});
