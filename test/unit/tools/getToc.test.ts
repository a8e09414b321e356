import assert from 'node:assert/strict';
import { documentId } from '../../../server/src/engine/chunking/ids';
import { Engine } from '../../../server/src/engine/engine';
import { renderToc, type TocResult } from '../../../server/src/library/view/tocRender';
import { estimateTokens } from '../../../server/src/engine/text/tokenEstimate';
import { tocCommand } from '../../../server/src/cli/commands/tocCommand';
import { createServices, type Services } from '../../../server/src/services/services';
import { callTool } from '../../../server/src/tools/callTool';
import type { GetTocOutput } from '../../../server/src/tools/getToc';
import { findTool } from '../../../server/src/tools/registry';
import { ToolInputError } from '../../../server/src/tools/toolError';
import { EXAMPLE_WORKSPACE, removeTempDirs, tempDir, write } from '../../helpers/tempWorkspace';

const id8 = (path: string) => documentId(path).slice(0, 8);
const PINNED = '.context/guides/finding-a-merchant-account-id.md';

describe('get_toc', function () {
  this.timeout(60_000);
  let engine: Engine;
  let services: Services;
  const tool = findTool('get_toc')!;
  const toc = async (args: Record<string, unknown>, sessionId = 'later') =>
    (await callTool(services, tool, args, { sessionId })) as GetTocOutput;

  before(async () => {
    engine = new Engine({
      folders: [{ name: 'fernhill', absPath: EXAMPLE_WORKSPACE }],
      settings: { refreshAfterMs: 0 },
    });
    await engine.waitForIndex();
    services = createServices({ engine, now: () => new Date('2026-06-01T12:00:00Z') });
    await toc({}, 'later'); // the "later" session has had its first answer
  });
  after(() => {
    engine.dispose();
    removeTempDirs();
  });

  it('maps the whole library, headed by its description, with the pinned documents on the first answer only', async () => {
    const first = await toc({}, 'session-1');
    assert.deepEqual(
      first.pinned?.map((p) => [p.title, p.id]),
      [['Finding a merchant account id', id8(PINNED)]],
    );
    assert.match(
      tool.renderText(first),
      /^Pinned documents \(they apply to every task; each session gets them once, whole\):\n\n=== Finding a merchant account id  \[doc [0-9a-f]{8}\] ===\n# Finding a merchant account id\n/,
    );
    assert.match(
      tool.renderText(first),
      /\n---\n\n# Library map: 26 documents in 6 namespaces\nFernhill engineering's shared library/,
    );
    const second = await toc({}, 'session-1');
    assert.equal(second.pinned, undefined);
    assert.match(tool.renderText(second), /^# Library map: 26 documents in 6 namespaces\n/);
    assert.equal(second.mode, 'map');
    assert.equal(second.documentCount, 26);
    assert.equal(second.condensed, false);
    assert.deepEqual(
      second.namespaces!.map((n) => [n.label, n.documentCount, n.level, n.profile]),
      [
        ['.', 9, 1, 'focused'],
        ['guides', 5, 1, 'focused'],
        ['reference', 5, 1, 'catalog'],
        ['rules', 4, 1, 'focused'],
        ['templates', 2, 1, 'focused'],
        ['voice', 1, 1, 'focused'],
      ],
    );
    assert.equal(second.tokens, estimateTokens(renderToc(second as unknown as TocResult)));
    assert.equal(second.tokens, 3_026);
    const pinned = second.namespaces![1].documents.find((d) => d.title === 'Finding a merchant account id')!;
    assert.equal(pinned.pinned, true);
    assert.match(tool.renderText(second), /\n## Finding a merchant account id  \[doc [0-9a-f]{8}\] \(pinned\)\n/);
    // Same call, same index: the same answer.
    assert.deepEqual(await toc({}), second);
  });

  it('query mode: the documents that best match, best first', async () => {
    const out = await toc({ query: 'writing a database migration' });
    assert.equal(out.mode, 'query');
    assert.equal(out.matched, 8);
    assert.deepEqual(
      out.documents!.slice(0, 3).map((d) => [d.title, d.id, d.level]),
      [
        ['Migrations are backwards-compatible', id8('.context/rules/backwards-compatible-migrations.md'), 1],
        ['Money is always an integer in minor units', id8('.context/rules/money-in-minor-units.md'), 1],
        ['SQL migrations', id8('.github/instructions/migrations.instructions.md'), 1],
      ],
    );
    assert.match(
      tool.renderText(out),
      /^# Library map for "writing a database migration": 8 matching documents, best first\n/,
    );
    const rules = await toc({ query: 'writing a database migration', namespace: 'rules' });
    assert.deepEqual(
      rules.documents!.map((d) => d.title),
      ['Migrations are backwards-compatible', 'Money is always an integer in minor units', 'Never log card numbers'],
    );
  });

  it("document mode lists one document's sections, by printed id or any unique prefix; formats show their properties", async () => {
    const cursor = '.cursor/rules/money-and-pci.mdc';
    const byPrefix = await toc({ document_id: id8(cursor).slice(0, 5) });
    assert.equal(byPrefix.mode, 'document');
    assert.deepEqual(byPrefix.document, {
      id: id8(cursor),
      title: 'Money and pci',
      path: cursor,
      namespace: '',
      level: 1,
      summary: 'Rules for code that handles amounts or card data in payments-platform',
      sectionCount: 1,
      pinned: false,
      format: 'cursor-mdc',
      applyTo: ['payments-platform/**/*.ts', 'payments-platform/**/*.go', 'payments-platform/**/*.kt'],
    });
    assert.match(
      tool.renderText(byPrefix),
      /^# Money and pci  \[doc [0-9a-f]{8}\]: 1 section\nRules for code that handles amounts or card data in payments-platform\nNamespace: "\." · format: cursor-mdc · applies to: payments-platform\/\*\*\/\*\.ts, payments-platform\/\*\*\/\*\.go, payments-platform\/\*\*\/\*\.kt\n\n- \[[0-9a-f]{8}\] Money and pci — Amounts are integers in minor units/,
    );
    assert.deepEqual(await toc({ document_id: documentId(cursor) }), byPrefix);
    const copilot = await toc({ document_id: id8('.github/instructions/migrations.instructions.md') });
    assert.equal(copilot.document!.format, 'instructions-md');
    assert.deepEqual(copilot.document!.applyTo, ['**/migrations/**/*.sql']);
    const refunds = await toc({ document_id: id8('.context/guides/issuing-refunds.md'), query: 'idempotency key' });
    assert.equal(refunds.sections![0].heading, 'Idempotency keys');
    assert.equal(refunds.matchedSections, 1);
  });

  it('refuses bad input with an error naming the field', async () => {
    const refused = async (args: Record<string, unknown>, pattern: RegExp) => {
      await assert.rejects(toc(args), (error: Error) => {
        assert.ok(error instanceof ToolInputError, error.message);
        assert.match(error.message, pattern);
        return true;
      });
    };
    await refused(
      { namespace: 'nope' },
      /^namespace: "nope" is not a library namespace; use one of "\.", "guides", "reference", "rules", "templates", "voice"\.$/,
    );
    await refused({ document_id: 'xyz!' }, /^document_id: "xyz!" is not an id; ids are hexadecimal/);
    await refused({ document_id: 'abc' }, /^document_id: "abc" is too short; give at least 4 characters/);
    await refused(
      { document_id: 'ffffffff' },
      /^document_id: no ready library document has the id "ffffffff"\. get_toc\(\) lists the document ids\.$/,
    );
    await refused(
      { document_id: id8('.context/guides/onboarding-first-week.md') },
      /belongs to "Your first week in engineering", which is a draft; drafts and expired pages are not served\.$/,
    );
    await refused(
      { document_id: id8('.context/guides/pci-dss-4-transition.md') },
      /which is expired \(expires: 2025-06-30\)/,
    );
    await refused(
      { document_id: id8(PINNED), namespace: 'rules' },
      /^namespace: document "[0-9a-f]{8}" \("Finding a merchant account id"\) is in namespace "guides", not "rules"/,
    );
    await refused(
      { query: 'x', bogus: 1 },
      /Invalid input for get_toc: input: "bogus" is not an argument of get_toc; it takes query, document_id, namespace/,
    );
  });

  it('maps only one namespace when asked; "." is the top', async () => {
    const top = await toc({ namespace: '.' });
    assert.equal(top.documentCount, 9);
    assert.equal(top.namespace, '');
    const rules = await toc({ namespace: 'rules' });
    assert.equal(rules.description, 'Non-negotiable engineering rules. Every change must follow all of them.');
    assert.deepEqual(
      rules.namespaces!.map((n) => n.documents.map((d) => d.title)),
      [
        [
          'Feature flag naming',
          'Migrations are backwards-compatible',
          'Money is always an integer in minor units',
          'Never log card numbers',
        ],
      ],
    );
  });

  it('answers at once on a cold index, flagged index-cold', async () => {
    const dir = tempDir('cold');
    write(dir, '.context/a.md', '# A\n\nText.\n');
    const cold = new Engine({ folders: [{ name: 'cold', absPath: dir }] });
    const out = (await callTool(createServices({ engine: cold }), tool, {}, { sessionId: 's' })) as GetTocOutput;
    assert.deepEqual(out.degraded, ['index-cold']);
    assert.equal(tool.renderText(out), 'The index is still empty; indexing has started. Ask again in a moment.');
    await cold.waitForIndex();
    cold.dispose();
  });

  it('wsctx toc prints the same map (the CLI command)', async () => {
    const text = await tocCommand(services, { namespace: 'voice' }, { json: false });
    assert.match(
      text,
      /# Library map of namespace "voice": 1 document\nHow Fernhill sounds in anything a merchant or a subscriber reads/,
    );
    const json = JSON.parse(await tocCommand(services, { query: 'naming a feature flag' }, { json: true }));
    assert.equal(json.documents[0].title, 'Feature flag naming');
  });
});
