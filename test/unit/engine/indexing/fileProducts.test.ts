import assert from 'node:assert/strict';
import { produceFromFile } from '../../../../server/src/engine/indexing/fileProducts';
import { heapKeptBy } from '../../../helpers/heapAfterGc';

describe('indexing/fileProducts', () => {
  it('keeps no slice of an epic page in the problems the memo holds', () => {
    // An epic's entities are reported as unknown until the catalog is known (epics.ts
    // `unlessKnown`); each report quotes the name as written, a slice of the page, and the
    // producers' memo keeps it after the file's text is dropped (text/detach.ts).
    const page = (i: number): string => {
      const parts = [
        `---\ntitle: Epic ${i}\nentities: [component:billing-worker-number-${i}, api:payments-api-${i}]\n---\n`,
      ];
      for (let h = 0; h < 20; h++) parts.push(`# Step ${h}\n\n${`work ${i} ${h} `.repeat(1600)}\n\n`);
      return parts.join('');
    };
    const { products, kept, textBytes } = heapKeptBy(60, page, (text, i) =>
      produceFromFile(`epics/e${i}.md`, text, '', ['epics'], () => true),
    );
    assert.deepEqual(
      products[3].problems.map((p) => p.message),
      [
        "Front matter field 'entities' names 'component:billing-worker-number-3', which is not a known entity.",
        "Front matter field 'entities' names 'api:payments-api-3', which is not a known entity.",
      ],
    );
    assert.deepEqual(products[3].epicChecks, [
      [0, 'component:default/billing-worker-number-3'],
      [1, 'api:default/payments-api-3'],
    ]);
    // The sections' own texts are each page once (~20 MB); slices would add the pages again.
    assert.ok(kept < textBytes * 1.4, `products hold ${kept} bytes for ${textBytes} bytes of pages`);
    assert.ok(
      kept > textBytes * 0.8,
      `products hold ${kept} bytes for ${textBytes} bytes of pages: the measure is off`,
    );
  });
});
