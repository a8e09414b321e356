/**
 * The language server's part of "open a folder, hover an entity": the built server (dist/server.js)
 * spawned over stdio with a real LSP client, on a copy of the example workspace with the default
 * embeddings (the local model), timed from the spawn to each step: initialize answered, the index
 * in service (the first status that says ready), the first hover on `owner: payments-team` that
 * shows the entity (asked every 50 ms from the spawn on, as an editor asks while the user
 * moves the mouse), the pass's diagnostics published, and the background embedding done. Cold: an
 * empty storage folder; warm: the same folder again (the snapshot and
 * the vectors it saved). The rest of an editor's cold open (the workbench, its extension host,
 * activation) is the editor's: test/e2e/firstOpen.e2e.ts times the whole of it in code-server.
 *
 *   npm run build && npx tsx bench/firstHover.ts [--runs 3]
 *
 * Prints a Markdown table with the load average; nothing is asserted.
 */
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { HoverRequest } from 'vscode-languageserver-protocol/node';
import { LspClient } from '../test/helpers/lspClient';
import { copyExampleWorkspace, removeTempDirs } from '../test/helpers/tempWorkspace';

interface Run {
  initialize: number;
  /** The first status that says ready (the index answers). */
  inService: number;
  /** Ready with the pass's diagnostics published. */
  diagnostics: number;
  firstHover: number;
  embeddingDone: number | null;
}

/** payments-platform/catalog-info.yaml line 29: `  owner: payments-team`. */
const HOVER = { file: 'payments-platform/catalog-info.yaml', position: { line: 28, character: 12 } };

async function open(workspace: string, storagePath: string): Promise<Run> {
  const started = performance.now();
  const since = () => Math.round(performance.now() - started);
  const lsp = await LspClient.start(workspace, {
    initializationOptions: { storagePath, settings: {}, workspaceTrusted: true },
    env: { WSCTX_EMBEDDINGS: 'local' },
  });
  const initialize = since();
  try {
    let inService: number | undefined;
    let diagnostics: number | undefined;
    void lsp
      .waitFor('the index in service', () => lsp.statuses.find((st) => st.phase === 'ready' && !st.updating))
      .then(() => (inService ??= since()));
    void lsp.waitForReady().then(() => (diagnostics ??= since()));
    const uri = lsp.uri(HOVER.file);
    let firstHover: number | undefined;
    while (firstHover === undefined) {
      const hover = await lsp.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri },
        position: HOVER.position,
      });
      if (JSON.stringify(hover?.contents ?? '').includes('Neighbours')) firstHover = since();
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await lsp.waitForReady();
    const done = await lsp
      .waitFor('embedding to end', () => {
        const last = lsp.statuses.at(-1);
        return last && last.phase === 'ready' && !last.embedding ? since() : undefined;
      })
      .catch(() => null);
    return {
      initialize,
      inService: inService ?? since(),
      diagnostics: diagnostics ?? since(),
      firstHover,
      embeddingDone: done,
    };
  } finally {
    await lsp.stop();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
  const runs = Math.max(1, Number(values.runs));
  const rows: string[] = [];
  const load = () => loadavg()[0].toFixed(1);
  for (let i = 0; i < runs; i++) {
    const workspace = copyExampleWorkspace();
    const storage = mkdtempSync(path.join(tmpdir(), 'wsctx-first-hover-'));
    for (const kind of ['cold', 'warm'] as const) {
      const before = load();
      const run = await open(workspace, storage);
      const s = (ms: number | null) => (ms === null ? '-' : `${(ms / 1000).toFixed(2)} s`);
      rows.push(
        `| ${kind} | ${s(run.initialize)} | ${s(run.inService)} | ${s(run.diagnostics)} | ${s(run.firstHover)} | ${s(run.embeddingDone)} | ${before}-${load()} |`,
      );
      console.error(`${kind} run ${i + 1}: ${rows.at(-1)}`);
    }
    removeTempDirs();
  }
  console.log(
    [
      '| open | initialize answered | index in service (status ready) | its diagnostics published | first useful hover | embedding done | load |',
      '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
      ...rows,
    ].join('\n'),
  );
}

void main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
