/**
 * Entity mentions: where a text names catalog entities, with line and columns, reading relation
 * fields as Backstage does (field default kind, the entity's namespace), `kind:name` refs anywhere
 * in prose and YAML, and only in comments and strings in source code.
 */
import assert from 'node:assert/strict';
import { plainCommentAndStringRanges } from '../../../../server/src/engine/parsing/plainComments';
import {
  findEntityMentions,
  findEntityMentionsAsync,
  mentionAt,
  valueTokens,
  type EntityMention,
} from '../../../../server/src/engine/references/entityMentions';

const brief = (m: EntityMention) =>
  `${m.line}:${m.column}-${m.endColumn} ${m.via} ${m.written} -> ${m.key ?? `null (${m.error})`}${m.field ? ` [${m.field}]` : ''}`;

describe('entity mentions', () => {
  it('reads relation fields with their default kind and the entity namespace, and the declaration', () => {
    const text = [
      'apiVersion: backstage.io/v1alpha1', // 1
      'kind: Component',
      'metadata:',
      '  name: billing-worker',
      '  namespace: payments', // 5
      '  description: Talks to component:default/ledger-service # and more',
      'spec:',
      '  owner: payments-team   # a comment: group:not-a-ref',
      '  system: default/billing',
      '  providesApis: [invoice-api, "events-api"]', // 10
      '  dependsOn:',
      '    - resource:invoices-db',
      '    - invoices-db',
      '  type: service',
      '  lifecycle: production',
      '',
    ].join('\n');
    assert.deepEqual(findEntityMentions('catalog-info.yaml', text).map(brief), [
      '4:9-23 name billing-worker -> component:payments/billing-worker [metadata.name]',
      '6:25-57 text component:default/ledger-service -> component:default/ledger-service',
      '8:10-23 field payments-team -> group:payments/payments-team [spec.owner]',
      '8:39-54 text group:not-a-ref -> group:default/not-a-ref',
      '9:11-26 field default/billing -> system:default/billing [spec.system]',
      '10:18-29 field invoice-api -> api:payments/invoice-api [spec.providesApis]',
      '10:32-42 field events-api -> api:payments/events-api [spec.providesApis]',
      '12:7-27 field resource:invoices-db -> resource:payments/invoices-db [spec.dependsOn]',
      '13:7-18 field invoices-db -> null (Entity reference "invoices-db" had missing or empty kind (e.g. did not start with "component:" or similar); spec.dependsOn has no default kind, write e.g. "component:invoices-db" or "resource:invoices-db") [spec.dependsOn]',
    ]);
  });

  it('reads only text refs in Markdown and code, and in YAML that is not a catalog', () => {
    assert.deepEqual(
      findEntityMentions(
        'notes.md',
        'Owned by group:payments-team, see\napi:default/ledger-api and owner: payments-team.',
      ).map(brief),
      [
        '1:10-29 text group:payments-team -> group:default/payments-team',
        '2:1-23 text api:default/ledger-api -> api:default/ledger-api',
      ],
    );
    assert.deepEqual(
      findEntityMentions('docker-compose.yml', 'services:\n  api:\n    image: component:x\n').map(brief),
      ['3:12-23 text component:x -> component:default/x'],
    );
  });

  // Each file names one entity in a comment, one in a string and one in code.
  const CODE: Array<[string, string]> = [
    [
      'src/worker.ts',
      '// Entry point of component:billing-worker.\nconst route = { component:checkout };\nlog(`via api:ledger-api`);\n',
    ],
    [
      'web/App.tsx',
      '// component:billing-worker\nconst o = { component:checkout };\nconst a = <a title="api:ledger-api" />;\n',
    ],
    [
      'internal/validate.go',
      '// Callers: component:billing-worker\nvar p = T{component:checkout}\nvar s = "api:ledger-api"\n',
    ],
    ['src/Charge.kt', '// component:billing-worker\nval component:checkout = 1\nval s = "api:ledger-api"\n'],
    ['app/ranking.py', '# component:billing-worker\ncomponent:checkout = 1\n"""api:ledger-api"""\n'],
    ['src/lib.rs', '/// component:billing-worker\nConfig { component:checkout };\nlet s = "api:ledger-api";\n'],
    [
      'src/A.java',
      '/** component:billing-worker */\nvoid m() { component:checkout for (;;) {} }\nString s = "api:ledger-api";\n',
    ],
    [
      'proto/ledger.proto',
      '// component:billing-worker\nmessage M { component:checkout }\noption x = "api:ledger-api";\n',
    ],
    ['scripts/run.sh', '# component:billing-worker\necho component:checkout\necho "api:ledger-api"\n'],
  ];
  const inCommentAndString = ['1 text component:billing-worker', '3 text api:ledger-api'];
  const lineBrief = (m: EntityMention) => `${m.line} ${m.via} ${m.written}`;

  it('counts refs in source code only inside comments and strings, with tree-sitter and with the plain scanner', async () => {
    for (const [path, text] of CODE) {
      assert.deepEqual(
        (await findEntityMentionsAsync(path, text)).map(lineBrief),
        inCommentAndString,
        `${path} (waiting for tree-sitter)`,
      );
      assert.deepEqual(findEntityMentions(path, text).map(lineBrief), inCommentAndString, `${path} (at once)`);
      const plain = plainCommentAndStringRanges(path, text);
      assert.deepEqual(
        findEntityMentions(path, text, { commentsAndStrings: plain }).map(lineBrief),
        inCommentAndString,
        `${path} (plain)`,
      );
    }
  });

  it('reads prose, unknown files and YAML whole, and any text whole when told to', async () => {
    const text = '# component:billing-worker\nsee { component:checkout }\n';
    const all = ['1 text component:billing-worker', '2 text component:checkout'];
    for (const path of ['notes.md', 'notes.txt', 'docs/guide.rst', 'Makefile', 'docker-compose.yml']) {
      assert.deepEqual((await findEntityMentionsAsync(path, text)).map(lineBrief), all, path);
      assert.deepEqual(findEntityMentions(path, text).map(lineBrief), all, path);
    }
    assert.deepEqual(findEntityMentions('run.sh', text, { commentsAndStrings: null }).map(lineBrief), all);
    assert.deepEqual(findEntityMentions('run.sh', text).map(lineBrief), ['1 text component:billing-worker']);
  });

  it('keeps the columns of refs in code files as editors count them', async () => {
    const mentions = await findEntityMentionsAsync('a.ts', 'const x = 1; // é😀 component:a\n');
    assert.deepEqual(mentions.map(brief), ['1:21-32 text component:a -> component:default/a']);
  });

  it('keeps the text refs of a catalog file that does not parse', () => {
    assert.deepEqual(findEntityMentions('catalog-info.yaml', 'kind: [unclosed\nowner: component:a\n').map(brief), [
      '2:8-19 text component:a -> component:default/a',
    ]);
  });

  it('finds the mention under a position, its last character included', () => {
    const mentions = findEntityMentions('a.md', 'see component:a now');
    assert.equal(mentionAt(mentions, 1, 4), undefined);
    assert.equal(mentionAt(mentions, 1, 5)?.written, 'component:a');
    assert.equal(mentionAt(mentions, 1, 16)?.written, 'component:a');
    assert.equal(mentionAt(mentions, 1, 17), undefined);
  });

  it('splits a YAML line into its values', () => {
    assert.deepEqual(valueTokens('  owner: group:default/x # comment'), [
      { text: 'group:default/x', start: 9, end: 24 },
    ]);
    assert.deepEqual(valueTokens('    - "resource:y"'), [{ text: 'resource:y', start: 7, end: 17 }]);
    assert.deepEqual(valueTokens('  consumesApis: [a, b]'), [
      { text: 'a', start: 17, end: 18 },
      { text: 'b', start: 20, end: 21 },
    ]);
    assert.deepEqual(valueTokens('  dependsOn:'), []);
    assert.deepEqual(valueTokens("  title: 'a # b'"), [
      { text: 'a', start: 10, end: 11 },
      { text: '#', start: 12, end: 13 },
      { text: 'b', start: 14, end: 15 },
    ]);
  });
});
