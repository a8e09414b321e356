import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { documentId, sectionId } from '../../../server/src/engine/chunking/ids';
import { Engine } from '../../../server/src/engine/engine';
import { sectionCommand } from '../../../server/src/cli/commands/sectionCommand';
import { createServices, type Services } from '../../../server/src/services/services';
import { callTool } from '../../../server/src/tools/callTool';
import type { GetSectionOutput } from '../../../server/src/tools/getSection';
import { findTool } from '../../../server/src/tools/registry';
import { ToolInputError } from '../../../server/src/tools/toolError';
import { EXAMPLE_WORKSPACE, removeTempDirs, tempDir, write } from '../../helpers/tempWorkspace';

const POLICY = '.context/reference/refund-policy.md';
const WINDOW = sectionId(POLICY, ['Refund policy', 'Refund window']);

/** The first two "Step N" headings of one page whose section ids share their first 4 characters. */
function collidingSteps(): { i: number; j: number; prefix: string } {
  const seen = new Map<string, number>();
  for (let n = 1; ; n++) {
    const prefix = sectionId('.context/steps/steps.md', ['Steps', `Step ${n}`]).slice(0, 4);
    const earlier = seen.get(prefix);
    if (earlier !== undefined) return { i: earlier, j: n, prefix };
    seen.set(prefix, n);
  }
}

describe('get_section', function () {
  this.timeout(60_000);
  let engine: Engine;
  let services: Services;
  const tool = findTool('get_section')!;
  const get = async (id: string, sessionId = 'later') =>
    (await callTool(services, tool, { id }, { sessionId })) as GetSectionOutput;
  const refused = async (id: string, pattern: RegExp, on = services) => {
    await assert.rejects(callTool(on, tool, { id }, { sessionId: 'later' }), (error: Error) => {
      assert.ok(error instanceof ToolInputError, error.message);
      assert.match(error.message, pattern);
      return true;
    });
  };

  before(async () => {
    engine = new Engine({
      folders: [{ name: 'fernhill', absPath: EXAMPLE_WORKSPACE }],
      settings: { refreshAfterMs: 0 },
    });
    await engine.waitForIndex();
    services = createServices({ engine, now: () => new Date('2026-06-01T12:00:00Z') });
    await get(WINDOW, 'later');
  });
  after(() => {
    engine.dispose();
    removeTempDirs();
  });

  it("returns one whole section with its document's title and id, by printed id, prefix or full id", async () => {
    const out = await get(WINDOW.slice(0, 8));
    const lines = fs.readFileSync(path.join(EXAMPLE_WORKSPACE, POLICY), 'utf8').split('\n');
    const start = lines.indexOf('## Refund window') + 1;
    const end = lines.indexOf('## Partial refunds') - 1; // 1-based: the line before the blank one
    assert.deepEqual(out.section, {
      id: WINDOW.slice(0, 8),
      heading: 'Refund window',
      headingPath: ['Refund policy', 'Refund window'],
      body: lines.slice(start + 1, end).join('\n'),
      tokens: 92,
      sourceRef: `${POLICY}:${start}-${end}`,
    });
    assert.deepEqual(out.document, {
      id: documentId(POLICY).slice(0, 8),
      title: 'Refund policy',
      path: POLICY,
      namespace: 'reference',
      format: 'context-page',
    });
    const rendered = tool.renderText(out);
    assert.equal(
      rendered,
      `# Refund window  [id: ${WINDOW.slice(0, 8)}]\nFrom: Refund policy  [doc ${documentId(POLICY).slice(0, 8)}]\n\n${out.section!.body}`,
    );
    assert.match(out.section!.body, /^Merchants can refund a captured charge within \*\*14 days\*\* of capture/);
    assert.equal(out.section!.tokens, Math.ceil(rendered.length / 4));
    assert.deepEqual(await get(WINDOW), out);
    assert.deepEqual(await get(WINDOW.slice(0, 5).toUpperCase()), out);
  });

  it("puts the pinned documents at the top of a session's first answer", async () => {
    const first = await get(WINDOW, 'new-session');
    assert.deepEqual(
      first.pinned?.map((p) => p.title),
      ['Finding a merchant account id'],
    );
    assert.match(
      tool.renderText(first),
      /^Pinned documents [^\n]*\n\n=== Finding a merchant account id  \[doc [0-9a-f]{8}\] ===\n[\s\S]*\n---\n\n# Refund window  \[id: /,
    );
    assert.equal((await get(WINDOW, 'new-session')).pinned, undefined);
  });

  it('never returns a section of a draft or an expired page, and says which it is', async () => {
    await refused(
      sectionId('.context/guides/onboarding-first-week.md', ['Your first week in engineering', 'Day 1']).slice(0, 8),
      /^id: "[0-9a-f]{8}" belongs to "Your first week in engineering", which is a draft; drafts and expired pages are not served\.$/,
    );
    await refused(
      sectionId('.context/guides/pci-dss-4-transition.md', ['PCI DSS 4.0 transition checklist', 'Payments team']),
      /which is expired \(expires: 2025-06-30\)/,
    );
  });

  it("refuses ids that are not ids, too short, unknown, or a document's", async () => {
    await refused('refund window', /^id: "refund window" is not an id; ids are hexadecimal, printed with 8 characters/);
    await refused('0a1', /^id: "0a1" is too short; give at least 4 characters of the id, or all 8 as printed\.$/);
    await refused(
      'ffffffffff',
      /^id: no ready library section has the id "ffffffffff"\. get_toc\(\) lists the section ids\.$/,
    );
    const doc = documentId(POLICY).slice(0, 8);
    await refused(
      doc,
      new RegExp(
        `^id: no ready library section has the id "${doc}"\\. It is a document id: get_toc\\(document_id="${doc}"\\) lists its sections\\.$`,
      ),
    );
    await assert.rejects(callTool(services, tool, {}, { sessionId: 'x' }), /Invalid input for get_section: id: /);
  });

  it('lists the candidates of an ambiguous prefix', async () => {
    const { i, j, prefix } = collidingSteps();
    const dir = tempDir('steps');
    const steps = Array.from({ length: j }, (_, k) => `## Step ${k + 1}\n\nDo thing ${k + 1}.`).join('\n\n');
    write(dir, '.context/steps/steps.md', `---\ntitle: Steps\n---\n\n# Steps\n\n${steps}\n`);
    const other = new Engine({ folders: [{ name: 'steps', absPath: dir }], settings: { refreshAfterMs: 0 } });
    await other.waitForIndex();
    const otherServices = createServices({ engine: other });
    const a = sectionId('.context/steps/steps.md', ['Steps', `Step ${i}`]).slice(0, 8);
    const b = sectionId('.context/steps/steps.md', ['Steps', `Step ${j}`]).slice(0, 8);
    const [first, second] = [
      [a, i],
      [b, j],
    ].sort((x, y) => (x[0] < y[0] ? -1 : 1));
    await refused(
      prefix,
      new RegExp(
        `^id: "${prefix}" matches 2 sections: \\[${first[0]}\\] Step ${first[1]} \\(in "Steps"\\); \\[${second[0]}\\] Step ${second[1]} \\(in "Steps"\\)\\. Give more characters of the id\\.$`,
      ),
      otherServices,
    );
    const out = (await callTool(otherServices, tool, { id: a }, { sessionId: 's' })) as GetSectionOutput;
    assert.equal(out.section!.heading, `Step ${i}`);
    other.dispose();
  });

  it('wsctx section prints the section (the CLI command)', async () => {
    const text = await sectionCommand(services, WINDOW.slice(0, 8), { json: false });
    assert.match(text, /# Refund window  \[id: [0-9a-f]{8}\]\nFrom: Refund policy/);
  });
});
