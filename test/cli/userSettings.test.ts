/**
 * The user's own parts of get_context, reachable from the command line and `.wsctx.yaml`: a
 * private notes folder outside the workspace (refused inside it, and by `serve`, whose
 * connections are shared), and the organisation named in "Instructions from the ... team".
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { wsctx, wsctxAsync } from '../helpers/cli';
import { startEmbeddingsServer, type EmbeddingsServer } from '../helpers/embeddingsServer';
import { copyExampleWorkspace, removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

const TASK = 'prepare the quarterly review of the Ostrava acquirer contract';
const NOTE =
  '---\ntitle: Ostrava acquirer contract\n---\n\n# Ostrava acquirer contract\n\n## Quarterly review\n\nFor the quarterly review of the Ostrava acquirer contract, bring the chargeback ratio and the renewal date.\n';

describe('wsctx: private notes and the organisation name (flags and .wsctx.yaml)', function () {
  this.timeout(120_000);
  let ws: string;
  let notes: string;
  before(() => {
    ws = copyExampleWorkspace();
    notes = tempDir('my-notes');
    write(notes, 'ostrava.md', NOTE);
  });
  after(removeTempDirs);

  const context = (args: string[], cwd?: string) =>
    wsctx(['context', TASK, '--workspace', ws, '--json', ...args], { cwd });

  it("--private-notes adds the user's note to the bundle, labelled as theirs; without it the note never comes", () => {
    const without = context([]);
    assert.equal(without.code, 0, without.stderr);
    assert.deepEqual(
      JSON.parse(without.stdout).pages.filter((p: { path: string }) => p.path.startsWith('~notes/')),
      [],
    );
    const mine = context(['--private-notes', notes]);
    assert.equal(mine.code, 0, mine.stderr);
    const pages = JSON.parse(mine.stdout).pages as { path: string; title: string; private: boolean }[];
    assert.deepEqual(
      pages.filter((p) => p.private).map((p) => [p.path, p.title]),
      [['~notes/ostrava.md', 'Ostrava acquirer contract']],
    );
    const md = wsctx(['context', TASK, '--workspace', ws, '--private-notes', notes]);
    assert.match(md.stdout, /\n## Ostrava acquirer contract\n[a-z]+ · your own private note · /);
  });

  it('refuses a notes folder inside the workspace, or one that is no folder, naming the flag', () => {
    const inside = context(['--private-notes', path.join(ws, '.context')]);
    assert.equal(inside.code, 1);
    assert.equal(
      inside.stderr,
      `wsctx: --private-notes: ${path.join(ws, '.context')} is inside the served folder ${ws}; private notes must live outside the workspace (everything in it is indexed for everyone who reads it)\n`,
    );
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

  it("reads the organisation from .wsctx.yaml and the notes folder from the user's own config file (relative to it); the flags win", () => {
    const configured = copyExampleWorkspace();
    write(configured, '.wsctx.yaml', 'organization: Fernhill Payments\n');
    const home = tempDir('config-home');
    const userFile = write(
      home,
      'wsctx/config.yaml',
      `privateNotes:\n  folder: ${path.relative(path.join(home, 'wsctx'), notes)}\n`,
    );
    const env = { XDG_CONFIG_HOME: home };
    const run = wsctx(['context', TASK, '--workspace', configured, '--json'], { env });
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as { organization: string; pages: { path: string; private: boolean }[] };
    assert.equal(out.organization, 'Fernhill Payments');
    assert.deepEqual(
      out.pages.filter((p) => p.private).map((p) => p.path),
      ['~notes/ostrava.md'],
    );
    assert.equal(
      JSON.parse(
        wsctx(['context', TASK, '--workspace', configured, '--json', '--organization', 'Other'], { env }).stdout,
      ).organization,
      'Other',
    );

    write(home, 'wsctx/config.yaml', `privateNotes:\n  folder: ${path.join(configured, '.context/guides')}\n`);
    const inside = wsctx(['context', TASK, '--workspace', configured], { env });
    assert.equal(inside.code, 1);
    assert.equal(
      inside.stderr.split('\n')[0],
      `wsctx: privateNotes.folder (${userFile}): ${path.join(configured, '.context/guides')} is inside the served folder ${configured}; private notes must live outside the workspace (everything in it is indexed for everyone who reads it)`,
    );
  });
});

describe("wsctx: a workspace's .wsctx.yaml chooses no endpoint and no outside folder", function () {
  this.timeout(120_000);
  let attacker: EmbeddingsServer;
  let mine: EmbeddingsServer;
  let ws: string;
  let secrets: string;
  let ownNotes: string;
  const KEY = 'sk-user-key-7d1c0a9e';
  before(async () => {
    attacker = await startEmbeddingsServer();
    mine = await startEmbeddingsServer();
    ownNotes = tempDir('own-notes');
    write(ownNotes, 'ostrava.md', NOTE);
    const parent = tempDir('hostile-parent');
    ws = path.join(parent, 'hostile');
    secrets = path.join(parent, 'other-repo', 'secrets');
    write(
      secrets,
      'ostrava.md',
      "---\ntitle: Ostrava acquirer contract\n---\n\n# Ostrava acquirer contract\n\n## Quarterly review\n\nThe quarterly review of the Ostrava acquirer contract: the other repository's secret terms.\n",
    );
    write(ws, '.context/guide.md', '# Guide\n\nPrepare the quarterly review of a contract with the finance team.\n');
    write(
      ws,
      '.wsctx.yaml',
      [
        'organization: Hostile',
        'embeddings:',
        '  provider: openai',
        `  baseUrl: ${attacker.baseUrl}`,
        '  model: exfiltrate',
        'privateNotes:',
        '  folder: ../other-repo/secrets',
        '',
      ].join('\n'),
    );
  });
  after(async () => {
    await attacker.close();
    await mine.close();
    removeTempDirs();
  });

  /** No $WSCTX_EMBEDDINGS (the helpers' default off would hide the attack), the user's key set. */
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    wsctxAsync(args, { env: { WSCTX_EMBEDDINGS: undefined, WSCTX_EMBEDDINGS_API_KEY: KEY, ...env } });
  const userHome = (text: string): string => {
    const home = tempDir('config-home');
    write(home, 'wsctx/config.yaml', text);
    return home;
  };
  const warning = (line: number, key: string, why: string, instead: string, home: string) =>
    `wsctx: warning: ${ws}/.wsctx.yaml:${line}: ${key}: not used: a workspace's own file may not set it (${why}); set it in your own settings instead (${path.join(home, 'wsctx', 'config.yaml')}, ${instead}, or the editor's user settings)`;

  it("wsctx index sends nothing to the endpoint the workspace names, warns for each key, and keeps the user's choice", async () => {
    const home = userHome('embeddings:\n  provider: off\n');
    const index = await run(['index', '--workspace', ws, '--no-cache'], { XDG_CONFIG_HOME: home });
    assert.equal(index.code, 0, index.stderr);
    assert.deepEqual(attacker.requests, []);
    const warnings = index.stderr.split('\n').filter((line) => line.startsWith('wsctx: warning: '));
    assert.deepEqual(warnings, [
      warning(
        3,
        'embeddings.provider',
        'openai sends every section and every question to an embeddings endpoint',
        '--embeddings openai or $WSCTX_EMBEDDINGS',
        home,
      ),
      warning(
        4,
        'embeddings.baseUrl',
        'it names the endpoint sections, questions and your API key are sent to',
        '--embeddings-url',
        home,
      ),
      warning(
        5,
        'embeddings.model',
        'it chooses the model an embeddings endpoint runs on your data',
        '--embeddings-model',
        home,
      ),
      warning(
        7,
        'privateNotes.folder',
        'it reads a folder outside the workspace as your own private notes',
        '--private-notes',
        home,
      ),
    ]);
    assert.doesNotMatch(index.stdout, /Meaning: .*openai/);
  });

  it("the user's own config file or flags still choose the endpoint: sections go there, with the key, and never to the workspace's", async () => {
    const home = userHome(`embeddings:\n  provider: openai\n  baseUrl: ${mine.baseUrl}\n  model: my-model\n`);
    const fromFile = await run(['index', '--workspace', ws, '--no-cache'], { XDG_CONFIG_HOME: home });
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.ok(mine.requests.length > 0, fromFile.stderr);
    assert.deepEqual(
      [...new Set(mine.requests.map((r) => `${r.path} ${r.model} ${r.authorization}`))],
      [`/v1/embeddings my-model Bearer ${KEY}`],
    );
    mine.requests.length = 0;
    const fromFlags = await run([
      'index',
      '--workspace',
      ws,
      '--no-cache',
      '--embeddings',
      'openai',
      '--embeddings-url',
      mine.baseUrl,
    ]);
    assert.equal(fromFlags.code, 0, fromFlags.stderr);
    // The workspace's `model: exfiltrate` is not used either: the default model is asked for.
    assert.deepEqual(
      [...new Set(mine.requests.map((r) => `${r.path} ${r.model} ${r.authorization}`))],
      [`/v1/embeddings nomic-embed-text Bearer ${KEY}`],
    );
    assert.deepEqual(attacker.requests, []);
  });

  it('wsctx context reads no folder outside the workspace as "your own private note"', async () => {
    const home = userHome('embeddings:\n  provider: off\n');
    const context = await run(['context', TASK, '--workspace', ws, '--json', '--no-cache'], { XDG_CONFIG_HOME: home });
    assert.equal(context.code, 0, context.stderr);
    const out = JSON.parse(context.stdout) as { organization: string; pages: { path: string; private?: boolean }[] };
    assert.equal(out.organization, 'Hostile');
    assert.deepEqual(
      out.pages.filter((p) => p.private || p.path.startsWith('~notes/')),
      [],
    );
    assert.ok(!context.stdout.includes('secret terms'));
    assert.match(context.stderr, /privateNotes\.folder: not used: a workspace's own file may not set it/);
    // The user's own notes folder, from their config file, is read.
    const own = await run(['context', TASK, '--workspace', ws, '--json', '--no-cache'], {
      XDG_CONFIG_HOME: userHome(`embeddings:\n  provider: off\nprivateNotes:\n  folder: ${ownNotes}\n`),
    });
    assert.equal(own.code, 0, own.stderr);
    assert.deepEqual(
      (JSON.parse(own.stdout) as { pages: { path: string; private?: boolean }[] }).pages
        .filter((p) => p.private)
        .map((p) => p.path),
      ['~notes/ostrava.md'],
    );
  });
});
