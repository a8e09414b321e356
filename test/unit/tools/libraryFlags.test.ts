/**
 * Conflicts and expiry where they matter, on the example workspace: the 14-day refund policy and
 * the 30-day refund guide carry each other's wording in get_context, search_instructions and
 * workspace_context; the expired PCI checklist is marked in workspace_context and never sent by
 * get_context; a page settles a flag with `conflicts_resolved`, and a bad entry is a problem
 * naming the file, line and field.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../../../server/src/engine/engine';
import { libraryView } from '../../../server/src/library/view/libraryView';
import { librarySoundness } from '../../../server/src/library/view/soundness';
import { contextDiagnostics, renderContextDiagnostics } from '../../../server/src/library/context/contextDiagnostics';
import { createServices, type Services } from '../../../server/src/services/services';
import { callTool } from '../../../server/src/tools/callTool';
import type { GetContextOutput } from '../../../server/src/tools/getContext';
import { findTool } from '../../../server/src/tools/registry';
import type { SearchInstructionsOutput } from '../../../server/src/tools/searchInstructions';
import type { ContextOutput } from '../../../server/src/tools/workspaceContext';
import { copyExampleWorkspace, removeTempDirs } from '../../helpers/tempWorkspace';

const NOW = new Date('2026-06-01T12:00:00Z');
const POLICY = 'Merchants can refund a captured charge within 14 days of capture, in full or in part.';
const GUIDE =
  'A captured charge can be refunded up to 30 days after capture, in full or in part, any number of times until the captured amount is used up.';

async function servicesOn(dir: string): Promise<{ engine: Engine; services: Services }> {
  const engine = new Engine({ folders: [{ name: 'fernhill', absPath: dir }], settings: { refreshAfterMs: 0 } });
  await engine.waitForIndex();
  return { engine, services: createServices({ engine, now: () => NOW }) };
}

describe('library flags in the tools: conflicts with both wordings, expiry markers, conflicts_resolved', function () {
  this.timeout(60_000);
  let dir: string;
  let engine: Engine;
  let services: Services;
  before(async () => {
    dir = copyExampleWorkspace();
    ({ engine, services } = await servicesOn(dir));
  });
  after(() => {
    engine.dispose();
    removeTempDirs();
  });

  const getContext = async (args: Record<string, unknown>, on = services) =>
    (await callTool(on, findTool('get_context')!, args, { sessionId: 't' })) as GetContextOutput;

  it('get_context puts a conflict note under each refund-window excerpt, naming the other page, and lists it in the JSON', async () => {
    const md = await getContext({ task: 'what is the refund window?' });
    const notes = md.markdown!.split('\n').filter((l) => l.startsWith('> Conflict'));
    const policyId = libraryView(engine.current()!, '2026-06-01').shownIds.get(
      [...engine.current()!.docs.values()].find((d) => d.path === '.context/reference/refund-policy.md')!.id,
    )!;
    assert.ok(
      notes.includes(
        `> Conflict: "Refund policy" (page_id ${policyId}) › Refund window says "${POLICY}", where this says "${GUIDE}" (30 days vs 14 days). Check which holds before relying on either.`,
      ),
      notes.join('\n'),
    );
    assert.equal(notes.length, 2, notes.join('\n'));
    // The note is part of the bundle the budget measured.
    assert.equal(md.tokens, Math.ceil(md.markdown!.length / 4));

    const json = await getContext({ task: 'what is the refund window?', format: 'json' });
    const guide = json.pages.find((p) => p.path === '.context/guides/issuing-refunds.md')!;
    const window = guide.sections.find((s) => s.heading === 'Refund window')!;
    assert.deepEqual(window.conflicts, [
      {
        with: {
          id: policyId,
          title: 'Refund policy',
          heading: 'Refund window',
          path: '.context/reference/refund-policy.md',
          line: 21,
        },
        heading: 'Refund window',
        here: GUIDE,
        there: POLICY,
        what: '30 days vs 14 days',
        by: 'numbers',
      },
    ]);
    // Sections without a disagreement carry none.
    assert.ok(guide.sections.filter((s) => s.heading !== 'Refund window').every((s) => s.conflicts === undefined));
  });

  it('get_context never sends the expired PCI checklist, even when the task names it', async () => {
    const json = await getContext({ task: 'work through the PCI DSS 4.0 transition checklist', format: 'json' });
    assert.deepEqual(
      json.pages.filter((p) => p.path === '.context/guides/pci-dss-4-transition.md'),
      [],
    );
  });

  it('search_instructions carries the conflict on each refund-window section, in its output and its text', async () => {
    const tool = findTool('search_instructions')!;
    const out = (await callTool(
      services,
      tool,
      { plan: 'what is the refund window?' },
      { sessionId: 's' },
    )) as SearchInstructionsOutput;
    const windows = out.documents.flatMap((d) =>
      d.sections
        .filter((s) => s.heading === 'Refund window')
        .map((s) => [d.title, s.conflicts?.map((c) => [c.with.title, c.here, c.there, c.what])]),
    );
    assert.deepEqual(windows, [
      ['Issuing refunds', [['Refund policy', GUIDE, POLICY, '30 days vs 14 days']]],
      ['Refund policy', [['Issuing refunds', POLICY, GUIDE, '14 days vs 30 days']]],
    ]);
    const text = tool.renderText(out);
    assert.ok(
      text.includes(
        `> Conflict: "Issuing refunds" [doc ${out.documents.find((d) => d.title === 'Issuing refunds')!.id}] › Refund window says "${GUIDE}", where this says "${POLICY}" (14 days vs 30 days).`,
      ),
      text,
    );
  });

  it('workspace_context marks the expired page and the conflicting passages', async () => {
    const tool = findTool('workspace_context')!;
    const pci = (await callTool(
      services,
      tool,
      { workspace: 'fernhill', question: 'PCI DSS 4.0 transition checklist', limit: 3 },
      { sessionId: 'w' },
    )) as ContextOutput;
    assert.deepEqual(
      pci.passages.map((p) => [p.sourceRef.path, p.expired ?? null]),
      [
        ['.context/guides/pci-dss-4-transition.md', '2025-06-30'],
        ['.context/guides/pci-dss-4-transition.md', '2025-06-30'],
        ['.cursor/rules/money-and-pci.mdc', null],
      ],
    );
    assert.match(tool.renderText(pci), /\nEXPIRED on 2025-06-30: this library page is past its expires date/);
    const refund = (await callTool(
      services,
      tool,
      { workspace: 'fernhill', question: 'what is the refund window?', limit: 3 },
      { sessionId: 'w' },
    )) as ContextOutput;
    assert.deepEqual(
      refund.passages.map((p) => [p.title, p.conflicts?.map((c) => c.with.title) ?? []]),
      [
        ['Refund policy', ['Issuing refunds']],
        ['Issuing refunds', ['Refund policy']],
        ['Issuing refunds', []],
      ],
    );
  });

  describe('conflicts_resolved', () => {
    let settledDir: string;
    let settled: { engine: Engine; services: Services };
    before(async () => {
      settledDir = copyExampleWorkspace();
      const guide = path.join(settledDir, '.context/guides/issuing-refunds.md');
      // The guide settles its conflict with the policy, and names a page twice wrong.
      fs.writeFileSync(
        guide,
        fs
          .readFileSync(guide, 'utf8')
          .replace(
            'usage: For the mechanics',
            'conflicts_resolved:\n  - Refund policy\n  - Issuing refunds\n  - Refund polcy\nusage: For the mechanics',
          ),
      );
      // The gateway guide settles a flag it does not have with the policy.
      const gateway = path.join(settledDir, '.context/guides/calling-the-payments-gateway.md');
      fs.writeFileSync(
        gateway,
        fs
          .readFileSync(gateway, 'utf8')
          .replace(/^---\n/, '---\nconflicts_resolved: .context/reference/refund-policy.md\n'),
      );
      settled = await servicesOn(settledDir);
    });
    after(() => settled.engine.dispose());

    it('settles every flag between the two pages; the other flags stay', () => {
      const soundness = librarySoundness(libraryView(settled.engine.current()!, '2026-06-01'));
      assert.deepEqual(
        soundness.resolved.map((f) => [f.kind, f.what]),
        [['conflict', '30 days vs 14 days']],
      );
      assert.deepEqual(
        soundness.flags.map((f) => f.kind),
        ['duplicate'],
      );
    });

    it('reports an unknown page, the page itself and an entry that settles nothing, at the key line', () => {
      const soundness = librarySoundness(libraryView(settled.engine.current()!, '2026-06-01'));
      assert.deepEqual(
        soundness.problems.map((p) => [p.path, p.line, p.severity, p.code, p.message]),
        [
          [
            '.context/guides/calling-the-payments-gateway.md',
            2,
            'info',
            'library.conflicts-resolved-unused',
            `Front matter field 'conflicts_resolved' names '.context/reference/refund-policy.md', but no conflict or duplicate between "Calling the payments gateway" and "Refund policy" is found. Remove the entry, or it will hide the next disagreement between them.`,
          ],
          [
            '.context/guides/issuing-refunds.md',
            12,
            'warning',
            'library.conflicts-resolved-self',
            "Front matter field 'conflicts_resolved' names 'Issuing refunds', which is this page itself; name the page it disagrees with.",
          ],
          [
            '.context/guides/issuing-refunds.md',
            12,
            'warning',
            'library.conflicts-resolved-unknown',
            "Front matter field 'conflicts_resolved' names 'Refund polcy', which is no page of the library (write the other page's title or its workspace-relative path).",
          ],
        ],
      );
    });

    it("wsctx diagnostics lists the settled flag and the entries' problems instead of the conflict", () => {
      const text = renderContextDiagnostics(
        contextDiagnostics(libraryView(settled.engine.current()!, '2026-06-01'), []),
      );
      assert.match(text, /\nConflicting pages \(0\):\n {2}none\n/);
      assert.match(
        text,
        /\nSettled by conflicts_resolved \(1\):\n {2}30 days vs 14 days \(numbers\): Issuing refunds \[[0-9a-f]+\] and Refund policy \[[0-9a-f]+\]\n/,
      );
      assert.match(
        text,
        /\nconflicts_resolved problems \(3\):\n {2}\.context\/guides\/calling-the-payments-gateway\.md:2: info: Front matter field 'conflicts_resolved' names/,
      );
    });

    it('get_context and workspace_context no longer carry the settled conflict', async () => {
      const md = await getContext({ task: 'what is the refund window?' }, settled.services);
      assert.deepEqual(
        md.markdown!.split('\n').filter((l) => l.startsWith('> Conflict')),
        [],
      );
      const refund = (await callTool(
        settled.services,
        findTool('workspace_context')!,
        { workspace: 'fernhill', question: 'what is the refund window?', limit: 2 },
        { sessionId: 'w' },
      )) as ContextOutput;
      assert.deepEqual(
        refund.passages.map((p) => p.conflicts),
        [undefined, undefined],
      );
    });
  });
});
