/**
 * The local embedder writes nothing outside the cache folder and queues nothing to send. ONNX
 * Runtime 1.30 carries Microsoft's telemetry on Linux and macOS: run as it comes, it writes
 * `~/.cache/Microsoft/DeveloperTools/.onnxruntime/{deviceid,onnxruntime.db}` (a device id and a
 * queue of session events for upload). The built `wsctx` embeds a workspace with the local model
 * and `wsctx doctor` loads the runtime in the main process, each with HOME (and XDG_CACHE_HOME)
 * in a folder of the test's own and ORT_DISABLE_TELEMETRY unset; afterwards the only files
 * there are the cache folder's.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { wsctx } from '../helpers/cli';
import { removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

/** Every file under `dir`, relative to it, sorted. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else out.push(child);
    }
  };
  walk('');
  return out.sort();
}

describe('nothing phoned home: the local embedder writes only to the cache folder (built CLI)', function () {
  this.timeout(180_000);
  after(removeTempDirs);

  it('wsctx index --embeddings local and wsctx doctor leave nothing under HOME but the cache folder', () => {
    const home = tempDir('home');
    const ws = tempDir('embed-ws');
    write(ws, '.context/guide.md', '# Guide\n\nDeploy billing-worker with care, one region at a time.\n');
    fs.mkdirSync(path.join(home, 'config'));
    const env = {
      HOME: home,
      XDG_CACHE_HOME: path.join(home, '.cache'),
      XDG_CONFIG_HOME: path.join(home, 'config'),
      WSCTX_CACHE_DIR: path.join(home, 'wsctx-cache'),
      WSCTX_EMBEDDINGS: 'local',
      // As a user's shell has it: not set (an empty value is not "1" to ONNX Runtime).
      ORT_DISABLE_TELEMETRY: '',
    };
    const index = wsctx(['index', '--workspace', ws, '--embeddings', 'local', '--json'], { env });
    assert.equal(index.code, 0, index.stderr);
    const summary = JSON.parse(index.stdout) as { meaning?: { sections?: number } };
    assert.ok(JSON.stringify(summary).includes('local:all-minilm-l6-v2+onnx'), index.stdout);
    const doctor = wsctx(['doctor', '--workspace', ws], { env });
    assert.match(doctor.stdout, /onnxruntime-node/);
    const outside = filesUnder(home).filter((file) => !file.startsWith('wsctx-cache/'));
    assert.deepEqual(outside, []);
    assert.ok(
      filesUnder(home).some((file) => file.startsWith('wsctx-cache/')),
      'the cache folder was used',
    );
  });
});
