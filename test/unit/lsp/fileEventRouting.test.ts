/**
 * Which file events the language server hands to the engine (lsp/features/fileEvents.ts), with a
 * state in service and before one is (a snapshot still loading): then nothing says which files
 * the index holds, and a warm start's git look may already have passed, so every event in a
 * served folder goes on (docs/ARCHITECTURE.md, "Warm start").
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FileChangeType, type FileEvent } from 'vscode-languageserver';
import { Engine } from '../../../server/src/engine/engine';
import { DocumentStore } from '../../../server/src/lsp/features/documents';
import { routeFileEvents } from '../../../server/src/lsp/features/fileEvents';
import { removeTempDirs, tempDir, write } from '../../helpers/tempWorkspace';

describe('lsp/features/fileEvents routing', () => {
  after(removeTempDirs);

  it('forwards only what the index can use once a state is in service, and every event in a folder before', async () => {
    const dir = tempDir('routing');
    write(dir, 'docs/guide.md', '# Guide\n\nThe guide.\n');
    write(dir, 'src/main.ts', 'export const x = 1;\n');
    const folders = [{ name: 'ws', absPath: dir }];
    const engine = new Engine({ folders });
    const state = await engine.waitForIndex();
    engine.dispose();
    const documents = new DocumentStore({ get: () => undefined, all: () => [] }, () => folders);
    const event = (rel: string, type: FileChangeType): FileEvent => ({
      uri: pathToFileURL(path.join(dir, rel)).href,
      type,
    });
    const events: FileEvent[] = [
      event('docs/guide.md', FileChangeType.Changed),
      event('src/main.ts', FileChangeType.Changed),
      event('src/gone', FileChangeType.Deleted),
      event('.git/index', FileChangeType.Changed),
      { uri: pathToFileURL(path.join(path.dirname(dir), 'elsewhere.md')).href, type: FileChangeType.Changed },
    ];

    assert.deepEqual(routeFileEvents(events, documents, state), { enginePaths: ['docs/guide.md'], inWorkspace: true });
    assert.deepEqual(routeFileEvents(events, documents, undefined), {
      enginePaths: ['docs/guide.md', 'src/main.ts', 'src/gone'],
      inWorkspace: true,
    });
  });
});
