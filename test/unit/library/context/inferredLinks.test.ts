import assert from 'node:assert/strict';
import { contextDiagnostics } from '../../../../server/src/library/context/contextDiagnostics';
import { InferredLinks } from '../../../../server/src/library/context/inferredLinks';
import { DelegatingModelProvider } from '../../../../server/src/library/models/delegatingProvider';
import { NO_MODEL } from '../../../../server/src/library/models/modelProvider';
import { removeTempDirs } from '../../../helpers/tempWorkspace';
import { indexDir, pageText, run, writeWorkspace, type Indexed } from './herald';

describe('inferred links: the judge says which pages need each other; get_context follows the confident ones', function () {
  this.timeout(60_000);
  let lib: Indexed;
  before(async () => {
    lib = await indexDir(
      writeWorkspace({
        '.context/templates/renewal-email.md': pageText(
          { title: 'Renewal email template', type: 'template', good_for: ['writing a renewal email'] },
          '# Renewal email template\n\nHi {name}, your plan renews on {date}.\n',
        ),
        '.context/guides/renewal-pricing.md': pageText(
          { title: 'Renewal pricing rules', summary: 'Discounts on renewals.' },
          '# Renewal pricing rules\n\n## Approvals\n\nDiscounts above ten percent need the deal desk.\n',
        ),
        '.context/guides/parking.md': pageText(
          { title: 'Office parking', summary: 'Where to park.' },
          '# Office parking\n\nLevel two, bays 10 to 20.\n',
        ),
      }),
      'links',
    );
  });
  after(() => {
    lib.engine.dispose();
    removeTempDirs();
  });

  it("asks about each page's nearest neighbours once, follows confident answers and suggests the strongest to authors", async () => {
    const asked: string[] = [];
    const judge = new DelegatingModelProvider('scripted-linker', async (request) => {
      const user = request.messages[1].content;
      asked.push(user);
      const answers: Record<string, number> = {};
      for (const block of user.split(/\n\n(?=\[q\d+\] )/).slice(1)) {
        const id = /^\[(q\d+)\]/.exec(block)![1];
        answers[id] = /First page: Renewal email template[\s\S]*Second page: Renewal pricing rules/.test(block)
          ? 0.95
          : 0.1;
      }
      return JSON.stringify(answers);
    });
    const links = new InferredLinks();
    assert.equal(await links.infer(lib.view, NO_MODEL), 0, 'no model, no inferred links');
    const calls = await links.infer(lib.view, judge);
    assert.equal(calls, 2, 'one call per page that has neighbours (the two renewal pages)');
    // Pages in map order: guides before templates.
    assert.equal(
      asked[1],
      'Task: using the page "Renewal email template"\n\n[q1] Would someone using the first page also need the second page to do their work? (Not whether they are similar.)\nFirst page: Renewal email template (Hi {name}, your plan renews on {date}.)\nSecond page: Renewal pricing rules (Discounts on renewals.)',
    );
    assert.equal(await links.infer(lib.view, judge), 0, 'unchanged pages are not asked again');

    const template = lib.view.docs.find((d) => d.title === 'Renewal email template')!;
    assert.deepEqual(
      links.linksOf(lib.view, template).map((l) => [l.doc.title, l.probability]),
      [['Renewal pricing rules', 0.95]],
    );

    const task = 'write a renewal email';
    const without = await run(lib.view, task);
    assert.deepEqual(
      without.bundle.reference.map((p) => p.doc.title),
      ['Renewal email template'],
    );
    const built = await run(lib.view, task, { inferredLinks: links });
    const pricing = built.bundle.reference.find((p) => p.doc.title === 'Renewal pricing rules')!;
    assert.equal(pricing.reason, 'link');
    assert.deepEqual(
      pricing.sections.map((s) => [s.entry.section.headingPath[1], s.reachedBy, s.via?.title]),
      [['Approvals', 'inferred-link', 'Renewal email template']],
    );

    const report = contextDiagnostics(lib.view, [], { inferredLinks: links });
    assert.deepEqual(
      report.suggestedLinks.map((s) => [s.from.title, s.to.title, s.probability]),
      [['Renewal email template', 'Renewal pricing rules', 0.95]],
    );
  });
});
