/**
 * The library of the example workspace (examples/fernhill): every instruction-file format read
 * with its properties into one library, namespaces with their descriptions and profiles, pinned
 * documents, drafts and expired pages left out, and the near-duplicate sections it holds on purpose.
 */
import assert from 'node:assert/strict';
import { documentId, sectionId } from '../../../../server/src/engine/chunking/ids';
import type { Engine } from '../../../../server/src/engine/engine';
import type { IndexState } from '../../../../server/src/engine/indexState';
import { libraryView, type LibraryView } from '../../../../server/src/library/view/libraryView';
import { findNearDuplicates } from '../../../../server/src/library/view/nearDuplicates';
import { libraryInstructions, pinnedDocuments } from '../../../../server/src/library/view/pinned';
import { documentSummary } from '../../../../server/src/library/view/summaries';
import { EXAMPLE_WORKSPACE } from '../../../helpers/tempWorkspace';
import { indexLibrary, TODAY } from './libraryFixtures';

describe('the example workspace library (examples/fernhill)', function () {
  this.timeout(60_000);
  let engine: Engine;
  let state: IndexState;
  let view: LibraryView;
  before(async () => {
    ({ engine, state, view } = await indexLibrary(EXAMPLE_WORKSPACE, 'fernhill'));
  });
  after(() => engine.dispose());

  const doc = (path: string) => view.docById.get(documentId(path));

  it('reads each instruction-file format into one library, with its origin format and properties', () => {
    const facts = (path: string) => {
      const d = doc(path)!;
      return {
        format: d.format,
        title: d.title,
        type: d.library!.type,
        namespace: d.library!.namespace,
        applyTo: d.library!.applyTo,
        alwaysApply: d.library!.alwaysApply,
      };
    };
    assert.deepEqual(facts('AGENTS.md'), {
      format: 'agents-md',
      title: 'AGENTS.md',
      type: 'instructions',
      namespace: '',
      applyTo: undefined,
      alwaysApply: undefined,
    });
    assert.deepEqual(facts('payments-platform/AGENTS.md'), {
      format: 'agents-md',
      title: 'Agent notes for payments-platform',
      type: 'instructions',
      namespace: '',
      applyTo: undefined,
      alwaysApply: undefined,
    });
    assert.deepEqual(facts('CLAUDE.md'), {
      format: 'claude-md',
      title: 'CLAUDE.md',
      type: 'instructions',
      namespace: '',
      applyTo: undefined,
      alwaysApply: undefined,
    });
    assert.deepEqual(facts('.github/copilot-instructions.md'), {
      format: 'copilot-instructions',
      title: 'Copilot instructions for Fernhill',
      type: 'instructions',
      namespace: '',
      applyTo: undefined,
      alwaysApply: undefined,
    });
    assert.deepEqual(facts('.github/instructions/migrations.instructions.md'), {
      format: 'instructions-md',
      title: 'SQL migrations',
      type: 'instructions',
      namespace: '',
      applyTo: ['**/migrations/**/*.sql'],
      alwaysApply: undefined,
    });
    assert.deepEqual(facts('.github/instructions/typescript.instructions.md').applyTo, ['**/*.ts', '**/*.tsx']);
    assert.deepEqual(facts('.cursor/rules/money-and-pci.mdc'), {
      format: 'cursor-mdc',
      title: 'Money and pci',
      type: 'instructions',
      namespace: '',
      applyTo: ['payments-platform/**/*.ts', 'payments-platform/**/*.go', 'payments-platform/**/*.kt'],
      alwaysApply: false,
    });
    // Cursor's `description` is the summary; a file without one gets its first sentence.
    assert.equal(
      documentSummary(doc('.cursor/rules/money-and-pci.mdc')!),
      'Rules for code that handles amounts or card data in payments-platform',
    );
    assert.equal(
      documentSummary(doc('CLAUDE.md')!),
      'Read AGENTS.md and .context/instructions.md; they apply to you in full.',
    );
    assert.deepEqual(facts('.context/instructions.md'), {
      format: 'context-page',
      title: 'Instructions for coding agents at Fernhill',
      type: 'instructions',
      namespace: '',
      applyTo: undefined,
      alwaysApply: undefined,
    });
    assert.deepEqual(facts('.context/reference/plans-and-limits.md'), {
      format: 'context-page',
      title: 'Plans, regions and limits',
      type: 'table',
      namespace: 'reference',
      applyTo: undefined,
      alwaysApply: undefined,
    });
  });

  it('serves 26 ready documents in 6 namespaces; the draft and the expired page are left out', () => {
    assert.equal(view.docs.length, 26);
    assert.equal(state.counts.bySourceKind.library, 28);
    assert.equal(doc('.context/guides/onboarding-first-week.md'), undefined);
    assert.equal(doc('.context/guides/pci-dss-4-transition.md'), undefined);
    assert.ok(state.docs.has(documentId('.context/guides/onboarding-first-week.md')), 'the draft is still indexed');
    assert.deepEqual(
      view.namespaces.map((n) => [n.name, n.documentCount, n.profile, n.profileDeclared]),
      [
        ['', 9, 'focused', false],
        ['guides', 5, 'focused', false],
        ['reference', 5, 'catalog', true],
        ['rules', 4, 'focused', true],
        ['templates', 2, 'focused', false],
        ['voice', 1, 'focused', false],
      ],
    );
    assert.match(view.namespaceByName.get('')!.description!, /^Fernhill engineering's shared library/);
    // On 2025-06-30 the PCI checklist was still valid.
    assert.ok(libraryView(state, '2025-06-30').docById.has(documentId('.context/guides/pci-dss-4-transition.md')));
    assert.equal(TODAY, '2026-06-01');
  });

  it('pins "Finding a merchant account id" whole into the MCP server instructions', () => {
    const pinned = pinnedDocuments(view);
    assert.deepEqual(
      pinned.map((p) => [p.title, p.id]),
      [['Finding a merchant account id', documentId('.context/guides/finding-a-merchant-account-id.md').slice(0, 8)]],
    );
    assert.match(
      pinned[0].text,
      /^# Finding a merchant account id\n\nEvery merchant has exactly one merchant account id/,
    );
    assert.match(
      pinned[0].text,
      /## Test and sandbox merchants\n\nSandbox ids start with `mac_test_`\. They exist only in staging and the gateway sandbox, and a\nproduction tool refuses them\.$/,
    );
    const instructions = libraryInstructions(state, new Date(`${TODAY}T12:00:00Z`));
    assert.match(
      instructions,
      /^The team's rules and instructions library \(26 documents\) is served by three tools: get_toc maps it/,
    );
    assert.ok(instructions.includes(`=== Finding a merchant account id  [doc ${pinned[0].id}] ===\n${pinned[0].text}`));
    // Before the first index pass there is nothing to pin yet: the first answer will carry them.
    assert.match(libraryInstructions(undefined), /Pinned documents, if the library has any, head your first answer/);
  });

  it('finds the near-duplicate "Idempotency keys" sections of two guides', () => {
    const pairs = findNearDuplicates(view);
    assert.equal(pairs.length, 1);
    const [pair] = pairs;
    const ids = [pair.a.section.id, pair.b.section.id].sort();
    assert.deepEqual(
      ids,
      [
        sectionId('.context/guides/calling-the-payments-gateway.md', [
          'Calling the payments gateway',
          'Idempotency keys',
        ]),
        sectionId('.context/guides/issuing-refunds.md', ['Issuing refunds', 'Idempotency keys']),
      ].sort(),
    );
    assert.equal(Math.round(pair.similarity * 1000) / 1000, 0.773);
  });
});
