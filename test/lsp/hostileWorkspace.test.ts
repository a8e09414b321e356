/**
 * A hostile workspace through the built language server over JSON-RPC: globs that backtracked
 * for minutes, Markdown that tried to become a trusted-command link in hovers and in the results
 * document, and a planted snapshot whose paths lead out of the workspace.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { snapshotFileFor } from '../../server/src/engine/engine';
import { SNAPSHOT_FORMAT } from '../../server/src/engine/persistence/indexSnapshot';
import { encodeSnapshot, readSnapshotFile } from '../../server/src/engine/persistence/snapshotFile';
import { wsctx } from '../helpers/cli';
import {
  CodeLensRequest,
  HoverRequest,
  TextDocumentContentRequest,
  WorkspaceSymbolRequest,
  type SymbolInformation,
} from 'vscode-languageserver-protocol/node';
import { OpenResultsRequest } from '../../shared/protocol';
import { writeBacktrackingGlobs, writeRangeLocationTargets, writeRangeSourceGlobs } from '../helpers/hostileWorkspaces';
import { LspClient } from '../helpers/lspClient';
import { linkTargets } from '../helpers/markdownLinks';
import { removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

/** A link to a trusted command, as an attacker writes it into any field it controls. */
const CLICK = (label: string) =>
  `[${label}](command:workspaceContext.showEntityDocs?%5B%7B%22entityRef%22%3A%22x%22%7D%5D)`;
/**
 * A folder name that is itself a link to a trusted command (a valid name on Linux): shown in the
 * hover's "Declared in" link, whose label marked reads again with its escapes undone.
 */
const DIR = `[svc](command:workspaceContext.showEntityDocs?%5B%5D)`;

describe('LSP: a hostile workspace (built server, JSON-RPC)', function () {
  this.timeout(120_000);
  after(removeTempDirs);

  it('answers while it indexes globs that backtracked for minutes, and indexes what they match', async () => {
    const ws = tempDir('globs-lsp');
    writeBacktrackingGlobs(ws);
    const lsp = await LspClient.start(ws);
    try {
      // Asked at once, while the first pass runs: an answer (from no index yet), not a wait.
      const early = (await lsp.connection.sendRequest(WorkspaceSymbolRequest.type, {
        query: 'located',
      })) as SymbolInformation[];
      assert.ok(Array.isArray(early));
      await lsp.waitForReady();
      const found = (await lsp.connection.sendRequest(WorkspaceSymbolRequest.type, {
        query: 'located',
      })) as SymbolInformation[];
      assert.deepEqual(
        found.map((s) => s.name),
        ['component:default/located-by-glob'],
      );
    } finally {
      await lsp.stop();
    }
  });

  it('answers workspace/symbol throughout a pass over a Location of 200 {1..1000}-range globs, then from the index', async () => {
    const ws = tempDir('range-targets-lsp');
    writeRangeLocationTargets(ws);
    const lsp = await LspClient.start(ws);
    try {
      // Probes one after another until the first pass is in service: each answered in turn, in
      // the phase it was answered in (before, the pass compiled its globs for minutes and
      // the index never came into service within the wait).
      const answers: { phase: string | undefined; names: string[] }[] = [];
      const ready = lsp.waitForReady();
      let done = false;
      void ready.then(() => (done = true));
      while (!done) {
        const found = (await lsp.connection.sendRequest(WorkspaceSymbolRequest.type, {
          query: 'located',
        })) as SymbolInformation[];
        answers.push({ phase: lsp.statuses.at(-1)?.phase, names: found.map((s) => s.name) });
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await ready;
      // Answered while the pass ran, not only before it started or after it ended.
      assert.ok(
        answers.some((a) => a.phase === 'indexing'),
        JSON.stringify(answers),
      );
      assert.ok(
        answers.every((a) => a.names.length === 0 || a.names.join() === 'component:default/located-by-range'),
        JSON.stringify(answers),
      );
      const found = (await lsp.connection.sendRequest(WorkspaceSymbolRequest.type, {
        query: 'located',
      })) as SymbolInformation[];
      assert.deepEqual(
        found.map((s) => s.name),
        ['component:default/located-by-range'],
      );
    } finally {
      await lsp.stop();
    }
  });

  it('logs .wsctx.yaml source globs past their budget at their line, and indexes with the defaults', async () => {
    const ws = tempDir('range-sources-lsp');
    writeRangeSourceGlobs(ws);
    const lsp = await LspClient.start(ws);
    try {
      await lsp.waitForReady();
      const config = path.join(ws, '.wsctx.yaml');
      assert.ok(
        lsp.logs.some((l) =>
          new RegExp(
            `^\\[settings\\] ${config.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: sources\\.catalog: these globs would take the source globs to [\\d,]+ automaton instructions, past the 2,048 one pass may run over every file; write fewer alternatives, or fewer globs; not applied$`,
          ).test(l),
        ),
        lsp.logs.join('\n'),
      );
      // The honest key beside it applies: the fixtures folder is not read.
      const found = (await lsp.connection.sendRequest(WorkspaceSymbolRequest.type, {
        query: 'o',
      })) as SymbolInformation[];
      assert.deepEqual(
        found.map((s) => s.name).filter((n) => n.startsWith('component:')),
        ['component:default/billing-worker'],
      );
    } finally {
      await lsp.stop();
    }
  });

  describe('Markdown from workspace text', () => {
    let lsp: LspClient;
    let ws: string;
    before(async () => {
      ws = tempDir('markdown');
      write(
        ws,
        `${DIR}/catalog-info.yaml`,
        [
          'apiVersion: backstage.io/v1alpha1',
          'kind: Component',
          'metadata:',
          '  name: evil-service',
          `  title: ${JSON.stringify(`Evil ${CLICK('title')} <command:workspaceContext.showEntityDocs>`)}`,
          `  description: ${JSON.stringify(`[d]: command:workspaceContext.showEntityDocs\n\n[d] and <https://e.example> ${CLICK('desc')}`)}`,
          'spec:',
          `  type: ${JSON.stringify(`svc\` ${CLICK('type')} \``)}`,
          `  lifecycle: ${JSON.stringify(`prod\`\` ${CLICK('lifecycle')} \`\``)}`,
          '  owner: team-a',
          '',
        ].join('\n'),
      );
      write(ws, `${DIR}/overview.md`, '# Evil service\n\nWhat the evil service does.\n');
      write(
        ws,
        '.context/evil.md',
        `---\ntitle: ${JSON.stringify(`Rollback ${CLICK('page title')}`)}\n---\n\n# Rollback\n\n## Roll back \`x\` ${CLICK('heading')}\n\nTo roll back evil-service, run the ${CLICK('rollback')} job and <command:workspaceContext.expandEntity>.\n`,
      );
      lsp = await LspClient.start(ws);
      await lsp.waitForReady();
    });
    after(async () => {
      await lsp.stop();
    });

    it('a hover shows every field as text: its only links are the declaration, the docs command and the expand commands', async () => {
      const rel = `${DIR}/catalog-info.yaml`;
      const uri = await lsp.open(rel, (await import('node:fs')).readFileSync(`${ws}/${rel}`, 'utf8'));
      const hover = await lsp.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri },
        position: { line: 3, character: 10 },
      });
      const value = (hover!.contents as { value: string }).value;
      assert.match(value, /^### Evil /);
      const targets = linkTargets(value);
      const [declaration, docs, ...expand] = targets;
      assert.equal(
        declaration,
        `${uri.replace(/[()[\]]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}#L4`,
      );
      // The docs command carries workspace-relative paths (the client opens one only inside a folder).
      assert.match(docs, /^command:workspaceContext\.showEntityDocs\?/);
      assert.deepEqual(JSON.parse(decodeURIComponent(docs.split('?')[1])), [
        {
          entityRef: 'component:default/evil-service',
          docs: [{ title: 'Evil service', path: `${DIR}/overview.md`, sourceKind: 'repo_overview' }],
        },
      ]);
      assert.equal(expand.length, 3);
      for (const target of expand) {
        assert.match(target, /^command:workspaceContext\.expandEntity\?/);
        assert.equal(
          JSON.parse(decodeURIComponent(target.split('?')[1]))[0].entityRef,
          'component:default/evil-service',
        );
      }
    });

    it('the results document and its hover show titles and headings as text', async () => {
      const info = await lsp.connection.sendRequest(OpenResultsRequest.type, {
        question: 'how do we roll back evil-service?',
      });
      const { text } = await lsp.connection.sendRequest(TextDocumentContentRequest.type, { uri: info.uri });
      const lines = text.split('\n');
      const at = lines.findIndex((l) => l.startsWith('## ') && l.includes('Roll back'));
      assert.ok(at > 0, text);
      assert.deepEqual(
        linkTargets(text).filter((t) => !t.startsWith('file://')),
        [],
      );
      const hover = await lsp.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri: info.uri },
        position: { line: at + 1, character: 0 },
      });
      const value = (hover!.contents as { value: string }).value;
      assert.match(value, /Roll back/);
      assert.deepEqual(linkTargets(value), []);
    });

    it('a code lens hands the docs command workspace paths, never URIs', async () => {
      const rel = `${DIR}/catalog-info.yaml`;
      const lenses =
        (await lsp.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri: lsp.uri(rel) } })) ?? [];
      const docs = lenses.find((l) => l.command?.command === 'workspaceContext.showEntityDocs');
      assert.ok(docs, JSON.stringify(lenses));
      assert.equal(docs.command!.arguments![0].docs.length, 1);
      for (const doc of docs.command!.arguments![0].docs as Record<string, unknown>[]) {
        assert.deepEqual(Object.keys(doc).sort(), ['path', 'sourceKind', 'title']);
        assert.doesNotMatch(String(doc.path), /^[a-z]+:|^\/|\.\./);
      }
    });
  });

  describe('a planted snapshot', () => {
    const COMPONENT =
      'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: planted\nspec:\n  type: service\n  owner: payments\n  lifecycle: production\n';

    /** A workspace indexed by the built CLI into `cache`, and its snapshot's path. */
    function indexed(label: string): { ws: string; cache: string; snapshot: string } {
      const ws = tempDir(label);
      write(ws, 'catalog-info.yaml', COMPONENT);
      const cache = tempDir(`${label}-cache`);
      const run = wsctx(['index', '--workspace', ws, '--cache-dir', cache]);
      assert.equal(run.code, 0, run.stderr);
      return { ws, cache, snapshot: snapshotFileFor(cache, [{ name: path.basename(ws), absPath: ws }]) };
    }

    async function declaredIn(ws: string, cache: string): Promise<{ link: string; logs: string[] }> {
      const lsp = await LspClient.start(ws, { initializationOptions: { storagePath: cache } });
      try {
        await lsp.waitForReady();
        const uri = await lsp.open('catalog-info.yaml', COMPONENT);
        const hover = await lsp.connection.sendRequest(HoverRequest.type, {
          textDocument: { uri },
          position: { line: 3, character: 10 },
        });
        const value = (hover!.contents as { value: string }).value;
        return { link: /^Declared in \[[^\]]*\]\(([^)]*)\)/m.exec(value)?.[1] ?? value, logs: [...lsp.logs] };
      } finally {
        await lsp.stop();
      }
    }

    it('a path out of the workspace in a valid snapshot never becomes a link: the snapshot is discarded', async () => {
      const { ws, cache, snapshot } = indexed('planted');
      const read = await readSnapshotFile(snapshot, SNAPSHOT_FORMAT);
      assert.ok(read?.ok);
      const json = read.parts.json as { catalog: { entities: { location: { path: string } }[] } };
      json.catalog.entities[0].location.path = '../../../../../../etc/passwd';
      fs.writeFileSync(snapshot, encodeSnapshot(SNAPSHOT_FORMAT, read.parts));
      const { link, logs } = await declaredIn(ws, cache);
      assert.equal(link, `${pathToFileURL(path.join(ws, 'catalog-info.yaml')).href}#L4`);
      assert.ok(
        logs.some((l) =>
          l.startsWith(
            `[snapshot] discarded ${snapshot}: snapshot names "../../../../../../etc/passwd" (where component:default/planted is declared), which is not inside its folders`,
          ),
        ),
        logs.join('\n'),
      );
    });

    it('a snapshot or a storage folder that belongs to another user is not used, and the log says so', async function () {
      if (process.getuid?.() !== 0) this.skip();
      const { ws, cache, snapshot } = indexed('theirs');
      fs.chownSync(snapshot, 65534, 65534);
      const first = await declaredIn(ws, cache);
      assert.ok(
        first.logs.some(
          (l) =>
            l ===
            `[snapshot] discarded ${snapshot}: it belongs to another user (uid 65534, you are 0), who could have planted it; not read; indexing from scratch`,
        ),
        first.logs.join('\n'),
      );
      fs.chownSync(cache, 65534, 65534);
      const second = await declaredIn(ws, cache);
      assert.equal(second.link, `${pathToFileURL(path.join(ws, 'catalog-info.yaml')).href}#L4`);
      assert.ok(
        second.logs.some((l) =>
          l.startsWith(`[storage] the cache folder ${cache} belongs to another user (uid 65534, you are 0)`),
        ),
        second.logs.join('\n'),
      );
    });
  });

  it('logs a 300 MB .wsctx.yaml as too large to read, and indexes with the defaults', async () => {
    const ws = tempDir('huge-config-lsp');
    write(
      ws,
      'catalog-info.yaml',
      'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: sized\nspec:\n  type: service\n  owner: payments\n  lifecycle: production\n',
    );
    const config = path.join(ws, '.wsctx.yaml');
    fs.writeFileSync(config, 'organization: Huge\n');
    fs.truncateSync(config, 300 * 1024 * 1024);
    const lsp = await LspClient.start(ws);
    try {
      await lsp.waitForReady();
      assert.ok(
        lsp.logs.includes(
          `[settings] ${config}:1: could not be read: the file holds 314,572,800 bytes; a configuration file may hold at most 262,144, so it is not read`,
        ),
        lsp.logs.join('\n'),
      );
      const found = (await lsp.connection.sendRequest(WorkspaceSymbolRequest.type, {
        query: 'sized',
      })) as SymbolInformation[];
      assert.deepEqual(
        found.map((s) => s.name),
        ['component:default/sized'],
      );
    } finally {
      await lsp.stop();
    }
  });
});
