import assert from 'node:assert/strict';
import {
  declaresEpic,
  extractEntityRefs,
  isEpicPath,
  keepAllRefs,
  parseEpic,
  readEpic,
  resolveEpic,
} from '../../../../server/src/engine/sources/epics';

describe('sources/epics', () => {
  it('extracts refs with a known kind, with lines and columns', () => {
    const text = [
      'Touches component:billing-worker and API:payments/Payments-API.', // 1
      'Not refs: openapi:x, foo/component:x, component:x/y/z, widget:thing, component:', // 2
      '  owned by group:default/team-payments.', // 3
    ].join('\n');
    assert.deepEqual(extractEntityRefs(text, 10), [
      {
        text: 'component:billing-worker',
        kind: 'component',
        name: 'billing-worker',
        line: 11,
        column: 9,
        endColumn: 33,
        offset: 8,
      },
      {
        text: 'API:payments/Payments-API',
        kind: 'api',
        namespace: 'payments',
        name: 'Payments-API',
        line: 11,
        column: 38,
        endColumn: 63,
        offset: 37,
      },
      {
        text: 'group:default/team-payments',
        kind: 'group',
        namespace: 'default',
        name: 'team-payments',
        line: 13,
        column: 12,
        endColumn: 39,
        offset: 155,
      },
    ]);
  });

  it('keeps every well-formed ref by default, kindless ones as components', () => {
    assert.equal(keepAllRefs('billing-worker'), 'component:default/billing-worker');
    assert.equal(keepAllRefs('API:Payments/Payments-API'), 'api:payments/payments-api');
    assert.equal(keepAllRefs(''), null);
  });

  it('recognises epics by path and by front matter', () => {
    assert.equal(isEpicPath('planning/epics/q3/payments.md'), true);
    assert.equal(isEpicPath('Epics/x.md'), true);
    assert.equal(isEpicPath('docs/refunds.epic.md'), true);
    assert.equal(isEpicPath('docs/epics.md'), false);
    assert.equal(isEpicPath('planning/epics/data.yaml'), false);
    assert.equal(declaresEpic({ kind: 'Epic' }), true);
    assert.equal(declaresEpic({ kind: 'page' }), false);
    assert.equal(readEpic({ path: 'docs/notes.md', text: '# Notes\ncomponent:a\n' }).doc, null);
  });

  it('attaches front matter entities (kind defaulting to component) and refs in the text', () => {
    const text = [
      '---', // 1
      'kind: epic', // 2
      'title: Faster refunds', // 3
      'entities:', // 4
      '  - billing-worker', // 5
      '  - api:payments-api', // 6
      '  - ghost', // 7
      '  - "component:"', // 8: not a ref at all
      '---', // 9
      '# Plan', // 10
      'Change system:payments and component:billing-worker.', // 11
      'Also resource:default/unknown-db.', // 12
    ].join('\n');
    const known = new Set(['component:default/billing-worker', 'api:default/payments-api', 'system:default/payments']);
    const result = readEpic({
      path: 'docs/refunds.md',
      text,
      folder: 'ws',
      resolve: (ref) => {
        const key = keepAllRefs(ref);
        return key && known.has(key) ? key : null;
      },
    });
    assert.ok(result.doc);
    assert.equal(result.doc.sourceKind, 'epic_doc');
    assert.equal(result.doc.format, 'markdown');
    assert.equal(result.doc.title, 'Faster refunds');
    assert.deepEqual(result.doc.entityRefs, [
      'component:default/billing-worker',
      'api:default/payments-api',
      'system:default/payments',
    ]);
    assert.deepEqual(
      result.refs.map((r) => [r.text, r.line, r.column]),
      [
        ['system:payments', 11, 8],
        ['component:billing-worker', 11, 28],
        ['resource:default/unknown-db', 12, 6],
      ],
    );
    assert.deepEqual(
      result.problems.map((p) => [p.line, p.code, p.message]),
      [
        [4, 'epic.invalid-field', "Front matter field 'entities' names 'ghost', which is not a known entity."],
        [4, 'epic.invalid-field', "Front matter field 'entities' names 'component:', which is not a known entity."],
      ],
    );
    assert.deepEqual(
      result.doc.sections.map((s) => [s.headingPath, s.startLine, s.endLine]),
      [[['Plan'], 10, 12]],
    );
  });

  it('keeps every well-formed ref without a resolver and accepts a single entity string', () => {
    const result = readEpic({
      path: 'epics/q3/launch.md',
      text: '---\nentities: web\n---\nSee user:jane and group:ops.\n',
    });
    assert.deepEqual(result.doc?.entityRefs, ['component:default/web', 'user:default/jane', 'group:default/ops']);
    assert.deepEqual(result.problems, []);
    assert.equal(result.doc?.title, 'Launch');
  });

  describe('parsed once, resolved against the catalog of the day', () => {
    const text = [
      '---', // 1
      'kind: epic', // 2
      'entities:', // 3
      '  - ghost', // 4
      '  - billing-worker', // 5
      '  - "component:"', // 6: not a ref at all
      '  - api:payments-api', // 7
      '---', // 8
      '# Plan', // 9
      'Change system:payments, component:billing-worker and resource:default/unknown-db.', // 10
    ].join('\n');
    const catalogs: string[][] = [
      [],
      ['component:default/billing-worker', 'api:default/payments-api', 'system:default/payments'],
      ['component:default/ghost', 'resource:default/unknown-db'],
      [
        'component:default/billing-worker',
        'component:default/ghost',
        'api:default/payments-api',
        'system:default/payments',
        'resource:default/unknown-db',
      ],
    ];

    it('gives, for any set of known entities, exactly what readEpic gives with that catalog', () => {
      const parsed = parseEpic({ path: 'docs/refunds.md', text, folder: 'ws' })!;
      assert.ok(parsed);
      for (const known of catalogs.map((keys) => new Set(keys))) {
        const expected = readEpic({
          path: 'docs/refunds.md',
          text,
          folder: 'ws',
          resolve: (ref) => {
            const key = keepAllRefs(ref);
            return key && known.has(key) ? key : null;
          },
        });
        const resolved = resolveEpic(parsed, (key) => known.has(key));
        assert.deepEqual(resolved.doc, expected.doc, [...known].join(', '));
        assert.deepEqual(resolved.problems, expected.problems, [...known].join(', '));
      }
    });

    it('keeps every well-formed ref when parsed, and hands back the parsed document when all are known', () => {
      const parsed = parseEpic({ path: 'docs/refunds.md', text })!;
      assert.deepEqual(parsed.doc.entityRefs, [
        'component:default/ghost',
        'component:default/billing-worker',
        'api:default/payments-api',
        'system:default/payments',
        'resource:default/unknown-db',
      ]);
      // The unknown-entity reports of well-formed refs are conditional; the malformed one is not.
      assert.deepEqual(
        parsed.unlessKnown.map(([i, key]) => [parsed.problems[i].message, key]),
        [
          ["Front matter field 'entities' names 'ghost', which is not a known entity.", 'component:default/ghost'],
          [
            "Front matter field 'entities' names 'billing-worker', which is not a known entity.",
            'component:default/billing-worker',
          ],
          [
            "Front matter field 'entities' names 'api:payments-api', which is not a known entity.",
            'api:default/payments-api',
          ],
        ],
      );
      const all = resolveEpic(parsed, () => true);
      assert.equal(all.doc, parsed.doc);
      assert.deepEqual(
        all.problems.map((p) => [p.line, p.code, p.message]),
        [[3, 'epic.invalid-field', "Front matter field 'entities' names 'component:', which is not a known entity."]],
      );
      assert.equal(parseEpic({ path: 'docs/notes.md', text: '# Notes\ncomponent:a\n' }), null);
    });
  });
});
