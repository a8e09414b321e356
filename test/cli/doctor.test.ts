/**
 * `wsctx doctor` as a user runs it: the built CLI on the example workspace (every check passes,
 * counts per folder) and on a broken setup (a cache path under a regular file, a folder holding
 * nothing to index, a `.wsctx.yaml` with bad keys or broken YAML), which fails with exit 1 and
 * says what to do.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TEST_CACHE_DIR, wsctx } from '../helpers/cli';
import { copyExampleWorkspace, EXAMPLE_WORKSPACE, removeTempDirs, tempDir } from '../helpers/tempWorkspace';

describe('wsctx doctor (built CLI)', () => {
  after(removeTempDirs);

  it('passes on the example workspace, one line per check, with what was found in the folder', () => {
    const run = wsctx(['doctor', '--workspace', EXAMPLE_WORKSPACE]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.deepEqual(
      lines.map((l) =>
        l
          .split(/\s{2,}/)
          .slice(0, 2)
          .join(' '),
      ),
      [
        'ok node',
        'ok git',
        'ok vector index',
        'ok syntax trees',
        'ok embeddings',
        'ok cache',
        'ok config',
        'warn folder fernhill',
        'ok docs fernhill',
        'All checks passed.',
      ],
    );
    assert.match(lines[0], new RegExp(`node\\s+v${process.versions.node.replace(/\./g, '\\.')}$`));
    assert.match(lines[1], /git\s+git version \d+\.\d+/);
    assert.match(
      lines[2],
      /vector index\s+the built-in HNSW graph over the int8 vector store: nearest sections by meaning; hnswlib-node also loads \(backend hnswlib\)$/,
    );
    assert.match(
      lines[3],
      /syntax trees\s+web-tree-sitter loaded: comments and strings in code are found by syntax tree$/,
    );
    assert.match(lines[4], /embeddings\s+off: passages rank on words alone/);
    assert.match(lines[5], new RegExp(`cache\\s+${TEST_CACHE_DIR.replace(/[/\\.]/g, '\\$&')} is writable$`));
    assert.match(lines[6], /config\s+no \.wsctx\.yaml in \S+examples\/fernhill: the built-in defaults apply$/);
    assert.match(
      lines[7],
      /folder fernhill\s+\S+examples\/fernhill: 99 files, 66 catalog entities, 136 documents \(66 catalog_entity, 32 catalog_doc, 28 library, 7 epic_doc, 3 repo_overview\), 1 problem \(wsctx index lists them\)$/,
    );
    // Every documentation file of the example is read, each by the source it belongs to.
    assert.match(
      lines[8],
      /docs fernhill\s+read 68 of 68 documentation files \(32 as docs, 3 as overviews, 7 as epics, 26 as library\)$/,
    );
  });

  it('loads the local embedding model and times one question', () => {
    const run = wsctx(['doctor', '--workspace', EXAMPLE_WORKSPACE, '--embeddings', 'local']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /^ok {4}embeddings {8}local minilm: loaded and embedded a question in \d+ ms \(384 dimensions\)$/m,
    );
    assert.match(run.stdout, /^ok {4}onnxruntime-node {2}(loaded|not installed)/m);
  });

  it('fails with exit 1 on an unwritable cache and a folder with nothing to index, saying what to do', () => {
    const root = tempDir('doctor');
    const file = path.join(root, 'a-file');
    fs.writeFileSync(file, 'not a folder');
    const empty = path.join(root, 'empty');
    fs.mkdirSync(empty);
    const run = wsctx(['doctor', '--workspace', empty, '--cache-dir', path.join(file, 'cache'), '--json']);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const checks = JSON.parse(run.stdout) as { name: string; status: string; detail: string }[];
    const byName = new Map(checks.map((c) => [c.name, c]));
    assert.equal(byName.get('cache')!.status, 'fail');
    assert.match(
      byName.get('cache')!.detail,
      /a-file\/cache is not writable \(ENOTDIR: not a directory, mkdir .*\); pass --cache-dir DIR or set \$WSCTX_CACHE_DIR$/,
    );
    assert.deepEqual(byName.get('folder empty'), {
      name: 'folder empty',
      status: 'fail',
      detail:
        `Nothing in ${empty} is indexed: no file there matches a source glob (what is read: catalog-info.yaml files, every Markdown, MDX, reStructuredText and AsciiDoc file that is not vendored, generated or a template (sources.docs), mkdocs.yml sites, .context/ and agent instruction files (AGENTS.md, CLAUDE.md, Copilot and Cursor rules)). ` +
        "Is this the workspace's root folder? A folder of code alone has nothing to index until it has a README.md or docs.",
    });
    assert.deepEqual(
      checks.filter((c) => c.status === 'fail').map((c) => c.name),
      ['cache', 'folder empty'],
    );
    const text = wsctx(['doctor', '--workspace', empty, '--cache-dir', path.join(file, 'cache')]);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /^fail  cache /m);
    assert.match(text.stdout, /\n2 checks failed\.\n$/);
  });

  it('checks .wsctx.yaml: what it sets, or one line per problem with file, line and key, and still runs the other checks', () => {
    const dir = copyExampleWorkspace();
    const config = path.join(dir, '.wsctx.yaml');
    fs.writeFileSync(config, 'embeddings:\n  provider: off\nbudgets.expandEdges: 20\n');
    const good = wsctx(['doctor', '--workspace', dir]);
    assert.equal(good.code, 0, good.stdout + good.stderr);
    assert.match(
      good.stdout,
      new RegExp(
        `^ok {4}config +${config.replace(/[/\\.]/g, '\\$&')} read: sets embeddings\\.provider, budgets\\.expandEdges$`,
        'm',
      ),
    );

    fs.writeFileSync(
      config,
      'sources:\n  catalog: 5\nembeddings:\n  provider: off\nbudgets:\n  contextPassages: 500\n  nope: 1\n',
    );
    const bad = wsctx(['doctor', '--workspace', dir, '--json']);
    assert.equal(bad.code, 1, bad.stdout + bad.stderr);
    const checks = JSON.parse(bad.stdout) as { name: string; status: string; detail: string }[];
    assert.deepEqual(
      checks.filter((c) => c.name === 'config').map((c) => [c.status, c.detail]),
      [
        [
          'fail',
          `${config}:2: sources.catalog: expected a list of glob strings; not applied (other commands stop on this: fix or remove the key)`,
        ],
        [
          'fail',
          `${config}:6: budgets.contextPassages: expected a whole number from 1 to 50 (got 500); not applied (other commands stop on this: fix or remove the key)`,
        ],
        [
          'fail',
          `${config}:7: budgets.nope: unknown setting; budgets holds getContextMaxTokens, contextPassages, expandEdges (other commands stop on this: fix or remove the key)`,
        ],
      ],
    );
    // The keys the file got right still apply (embeddings off), and the folder is still indexed.
    assert.match(checks.find((c) => c.name === 'embeddings')!.detail, /^off: /);
    assert.match(checks.find((c) => c.name === `folder ${path.basename(dir)}`)!.detail, /66 catalog entities/);
    // Every other command stops on the same file, as before.
    const ask = wsctx(['ask', 'who owns billing-worker?', '--workspace', dir]);
    assert.equal(ask.code, 1);
    assert.match(ask.stderr, /3 problems in the workspace configuration:/);

    fs.writeFileSync(config, 'sources: [\n');
    const broken = wsctx(['doctor', '--workspace', dir]);
    assert.equal(broken.code, 1);
    assert.match(
      broken.stdout,
      new RegExp(
        // At line 1, where the unclosed `[` opens.
        `^fail  config +${config.replace(/[/\\.]/g, '\\$&')}:1: YAML error: [^\\n]*; the file is not applied \\(other commands stop on this: fix the file\\)$`,
        'm',
      ),
    );
    assert.match(broken.stdout, /\n1 check failed\.\n$/);
  });
});
