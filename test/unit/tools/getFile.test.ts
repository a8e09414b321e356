import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { documentId } from '../../../server/src/engine/chunking/ids';
import { Engine } from '../../../server/src/engine/engine';
import { fileCommand } from '../../../server/src/cli/commands/fileCommand';
import { createServices } from '../../../server/src/services/services';
import { callTool } from '../../../server/src/tools/callTool';
import type { GetFileOutput } from '../../../server/src/tools/getFile';
import { findTool } from '../../../server/src/tools/registry';
import { ToolInputError } from '../../../server/src/tools/toolError';
import { removeTempDirs, tempDir, write } from '../../helpers/tempWorkspace';
import { TAXWELL } from '../library/context/herald';

const id8 = (p: string) => documentId(p).slice(0, 8);

describe('get_file (tool)', function () {
  this.timeout(60_000);
  const tool = findTool('get_file')!;
  const opened: Engine[] = [];
  const servicesOn = async (dir: string) => {
    const engine = new Engine({ folders: [{ name: 'ws', absPath: dir }], settings: { refreshAfterMs: 0 } });
    opened.push(engine);
    await engine.waitForIndex();
    return createServices({ engine, now: () => new Date('2026-06-01T12:00:00Z') });
  };
  after(() => {
    for (const e of opened) e.dispose();
    removeTempDirs();
  });

  it('returns a text file as text, with name, size and media type', async () => {
    const services = await servicesOn(TAXWELL);
    const id = id8('.context/reference/price-list.md');
    const out = (await callTool(services, tool, { page_id: id }, { sessionId: 'cli' })) as GetFileOutput;
    const csv = fs.readFileSync(path.join(TAXWELL, '.context/reference/price-list.csv'), 'utf8');
    assert.deepEqual(out.file, {
      pageId: id,
      pageTitle: 'Price list',
      path: '.context/reference/price-list.csv',
      name: 'price-list.csv',
      bytes: Buffer.byteLength(csv),
      mediaType: 'text/csv',
      encoding: 'utf8',
      content: csv,
      tokens: Math.ceil(csv.length / 4),
    });
    assert.equal(
      tool.renderText(out),
      `price-list.csv (text/csv, ${Buffer.byteLength(csv)} bytes), attached to "Price list" [page_id: ${id}]\n\n${csv}`,
    );
    // The command line names the page as its commands do: by its id, beside its file's name.
    assert.equal(
      await fileCommand(services, id, { json: false }),
      tool.renderText(out).replace(`[page_id: ${id}]`, `[doc ${id}]`),
    );
  });

  it('says a page has no attached file (and points at read_page) without failing', async () => {
    const services = await servicesOn(TAXWELL);
    const id = id8('.context/voice/voice-and-tone.md');
    const out = (await callTool(services, tool, { page_id: id }, { sessionId: 'cli' })) as GetFileOutput;
    assert.equal(out.file, undefined);
    assert.equal(
      out.notice,
      `"Voice and tone" (page_id ${id}) has no attached file; read_page(page_id="${id}") returns the page itself.`,
    );
  });

  it('returns a binary file base64-encoded, and refuses a file that resolves outside the workspace', async () => {
    const outside = tempDir('outside');
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'not yours');
    const dir = tempDir('files');
    write(dir, '.context/a.md', '---\ntitle: Logo\nfile: logo.png\n---\n\n# Logo\n');
    // Not UTF-8 (and no NUL byte: discovery skips files it sniffs as binary, see the report).
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe]);
    write(dir, '.context/logo.png', png);
    write(dir, '.context/b.md', '---\ntitle: Escape\nfile: link.txt\n---\n\n# Escape\n');
    // Inside when indexed (a link out is never listed, see discovery), pointed outside afterwards.
    write(dir, '.context/inside.txt', 'in the workspace');
    fs.symlinkSync(path.join(dir, '.context/inside.txt'), path.join(dir, '.context/link.txt'));
    const services = await servicesOn(dir);
    fs.rmSync(path.join(dir, '.context/link.txt'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, '.context/link.txt'));
    const logo = (await callTool(
      services,
      tool,
      { page_id: id8('.context/a.md') },
      { sessionId: 'cli' },
    )) as GetFileOutput;
    assert.deepEqual(
      [logo.file!.encoding, logo.file!.content, logo.file!.mediaType, logo.file!.bytes, logo.file!.tokens],
      ['base64', png.toString('base64'), 'image/png', 6, undefined],
    );
    assert.match(
      tool.renderText(logo),
      /^logo\.png \(image\/png, 6 bytes\), attached to "Logo" \[page_id: [0-9a-f]{8}\]\n\nA binary file: its base64 content is in the structured result \(file\.content\)\.$/,
    );
    await assert.rejects(
      callTool(services, tool, { page_id: id8('.context/b.md') }, { sessionId: 'cli' }),
      (e: Error) =>
        e instanceof ToolInputError &&
        e.message ===
          'page_id: the file attached to "Escape" (.context/link.txt) is outside the workspace folder and is not served.',
    );
  });

  it('refuses, naming the reason, a file the page names that was missing or a FIFO when indexed', async () => {
    const dir = tempDir('files');
    write(dir, '.context/gone.md', '---\ntitle: Gone\nfile: rates.csv\n---\n\n# Gone\n');
    write(dir, '.context/pipe.md', '---\ntitle: Piped\nfile: feed.csv\n---\n\n# Piped\n');
    execFileSync('mkfifo', [path.join(dir, '.context/feed.csv')]);
    const services = await servicesOn(dir);
    const problems = services.engine
      .current()!
      .problems.filter((p) => p.message.startsWith("Front matter field 'file'"))
      .map((p) => [p.path, p.message])
      .sort();
    assert.deepEqual(problems, [
      ['.context/gone.md', "Front matter field 'file' names '.context/rates.csv', which does not exist."],
      ['.context/pipe.md', "Front matter field 'file' names '.context/feed.csv', which does not exist."],
    ]);
    await assert.rejects(
      callTool(services, tool, { page_id: id8('.context/gone.md') }, { sessionId: 'cli' }),
      (e: Error) =>
        e instanceof ToolInputError &&
        e.message ===
          'page_id: "Gone" names the attached file .context/rates.csv in its front matter, but there is no such file.',
    );
    await assert.rejects(
      callTool(services, tool, { page_id: id8('.context/pipe.md') }, { sessionId: 'cli' }),
      (e: Error) =>
        e instanceof ToolInputError &&
        e.message ===
          'page_id: the file attached to "Piped" (.context/feed.csv) cannot be served: a FIFO (named pipe), not a regular file.',
    );
    // Added after indexing: served, through the same read guard.
    write(dir, '.context/rates.csv', 'a,b\n');
    const late = (await callTool(
      services,
      tool,
      { page_id: id8('.context/gone.md') },
      { sessionId: 'cli' },
    )) as GetFileOutput;
    assert.equal(late.file?.content, 'a,b\n');
  });
});
