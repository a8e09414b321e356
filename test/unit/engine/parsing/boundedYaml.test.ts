/**
 * Bounded YAML: the same documents and the same duplicate-key errors as the `yaml` package's own
 * (quadratic) check, found in linear time; nesting past the limit refused before composing.
 */
import * as assert from 'node:assert/strict';
import { LineCounter, parseAllDocuments, type YAMLError } from 'yaml';
import {
  exceedsNesting,
  MAX_YAML_NESTING,
  parseAllDocumentsBounded,
  parseDocumentBounded,
  parseYamlValue,
} from '../../../../server/src/engine/parsing/boundedYaml';

/** Each document's errors as [code, line, col], and its value. */
function outline(docs: unknown) {
  const list = (Array.isArray(docs) ? docs : [docs]) as { errors: YAMLError[]; toJS(): unknown }[];
  return list.map((doc) => ({
    errors: doc.errors.map((e) => [e.code, e.linePos?.[0].line, e.linePos?.[0].col]),
    value: doc.errors.length ? null : doc.toJS(),
  }));
}

describe('engine/parsing/boundedYaml', () => {
  it('finds the duplicate keys yaml finds, where it finds them', () => {
    const texts = [
      'a: 1\nb: 2\na: 3\n',
      'a: 1\n"a": 2\n',
      '1: x\n"1": y\n',
      'outer:\n  x: 1\n  x: 2\nother: {p: 1, q: 2, p: 3}\n',
      'list:\n  - {k: 1, k: 2}\n  - k: 1\n    k: 1\n',
      'true: 1\nTrue: 2\n',
      'null: 1\n~: 2\n',
      'a: 1\n---\na: 1\nb: 2\nb: 3\n',
      'a: &x 1\nb: *x\nc: {a: 1}\n',
      'a: [1, 2, {b: 1, b: 2}]\n',
    ];
    for (const text of texts) {
      const theirs = outline(parseAllDocuments(text, { lineCounter: new LineCounter(), prettyErrors: true }));
      const ours = outline(parseAllDocumentsBounded(text, { lineCounter: new LineCounter(), prettyErrors: true }));
      assert.deepEqual(ours, theirs, text);
    }
    const doc = parseDocumentBounded('a: 1\na: 2\n', { prettyErrors: true });
    assert.equal(doc.errors[0].message, 'Map keys must be unique at line 2, column 1');
  });

  it('checks a 100,000-key mapping in linear time (the yaml check compares every pair)', () => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `k${i}: ${i}`);
    const docs = parseAllDocumentsBounded(`{${keys.join(', ')}, k99999: again}`);
    assert.deepEqual(
      docs[0].errors.map((e) => e.code),
      ['DUPLICATE_KEY'],
    );
  });

  it('refuses nesting past the limit, flow (before composing) or block, with the line', () => {
    const flow = parseAllDocumentsBounded(`a: 1\nb: ${'['.repeat(40_000)}${']'.repeat(40_000)}\n`);
    assert.deepEqual(
      flow.map((d) => d.errors.map((e) => [e.code, e.linePos?.[0].line, e.message])),
      [
        [
          [
            'IMPOSSIBLE',
            2,
            `Nested deeper than ${MAX_YAML_NESTING} levels of mappings and lists at line 2, column ${4 + MAX_YAML_NESTING}`,
          ],
        ],
      ],
    );
    // Brackets inside quotes, comments and block scalars are not nesting.
    const text = `q: "${'['.repeat(200)}"\n# ${'{'.repeat(200)}\nb: |\n  ${'['.repeat(200)}\n`;
    assert.deepEqual(parseAllDocumentsBounded(text)[0].errors, []);
    let block = '';
    for (let depth = 0; depth <= MAX_YAML_NESTING + 1; depth++) block += `${' '.repeat(depth)}k:\n`;
    const deep = parseDocumentBounded(block);
    assert.deepEqual(
      deep.errors.map((e) => [e.code, e.linePos?.[0].line]),
      [['IMPOSSIBLE', MAX_YAML_NESTING + 1]],
    );
    assert.throws(() => parseYamlValue(block), /Nested deeper than 100 levels/);
    assert.deepEqual(parseYamlValue('a: [1, {b: 2}]\n'), { a: [1, { b: 2 }] });
  });

  it('measures the nesting of plain data without recursion', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.equal(exceedsNesting(deep), true);
    assert.equal(exceedsNesting({ a: [{ b: [1] }] }), false);
    assert.equal(exceedsNesting({ a: [{ b: [1] }] }, 3), true);
  });
  it('reports an unclosed quote or flow collection where it opens, not where the text ends', () => {
    const errors = (text: string) =>
      parseAllDocumentsBounded(text, { lineCounter: new LineCounter(), prettyErrors: true }).flatMap((d) =>
        d.errors.map((e) => [e.code, e.linePos?.[0].line, e.linePos?.[0].col, e.message]),
      );
    // `yaml` itself puts the first on line 7 (the end of the file) and the flow one on line 2.
    assert.deepEqual(
      errors('kind: Component\nmetadata:\n  name: x\n  description: "unclosed\nspec:\n  type: service\n'),
      [
        [
          'MISSING_CHAR',
          4,
          16,
          'Missing closing "quote: the string that opens here is never closed at line 4, column 16',
        ],
      ],
    );
    assert.deepEqual(errors("a: 'ok'\nb: 'open\nc: 3\n"), [
      ['MISSING_CHAR', 2, 4, "Missing closing 'quote: the string that opens here is never closed at line 2, column 4"],
    ]);
    assert.deepEqual(errors('a: [1, 2\nb: 3\n'), [
      ['BAD_INDENT', 1, 4, 'Missing closing ]: the flow sequence that opens here is never closed at line 1, column 4'],
    ]);
    assert.deepEqual(errors('- a\n- {x: 1, y: [2]\n- c\n'), [
      ['BAD_INDENT', 2, 3, 'Missing closing }: the flow map that opens here is never closed at line 2, column 3'],
    ]);
    // Other errors stay where yaml reports them.
    assert.deepEqual(errors('a: b: c\n'), [
      [
        'BLOCK_AS_IMPLICIT_KEY',
        1,
        4,
        'Nested mappings are not allowed in compact mappings at line 1, column 4:\n\na: b: c\n   ^\n',
      ],
    ]);
  });
});
