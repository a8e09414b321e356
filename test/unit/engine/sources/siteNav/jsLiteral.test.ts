import assert from 'node:assert/strict';
import { Computed, readExportedValue } from '../../../../../server/src/engine/sources/siteNav/jsLiteral';

describe('sources/siteNav/jsLiteral', () => {
  it('reads module.exports of an object literal: keys, strings, numbers, nested arrays, comments', () => {
    const source = [
      '// @ts-check',
      '/** @type {import("x").SidebarsConfig} */',
      'module.exports = {',
      "  docs: ['intro', { type: 'doc', id: \"guide\", label: `Guide` }, 1_000, true, null],",
      "  'other-sidebar': { Category: ['a', 'b',], },",
      '};',
    ].join('\n');
    assert.deepEqual(readExportedValue(source), {
      value: {
        docs: ['intro', { type: 'doc', id: 'guide', label: 'Guide' }, 1000, true, null],
        'other-sidebar': { Category: ['a', 'b'] },
      },
      line: 3,
    });
  });

  it('follows `export default name` to a declared literal, through TypeScript types and spreads', () => {
    const source = [
      "import type { SidebarsConfig } from '@docusaurus/plugin-content-docs';",
      "import { parseEnv } from './src/utils/env';",
      'const env = parseEnv(process.env);',
      "const common = ['a', 'b'] as const;",
      'const extra: Record<string, string[]> = { more: [...common, "c"] };',
      'const sidebars: SidebarsConfig = {',
      '  docs: [...common, "d"],',
      '  ...extra,',
      '  maybe: [...(env.FLAG ? ["x"] : []), "y"],',
      '} satisfies SidebarsConfig;',
      'export default sidebars;',
    ].join('\n');
    const { value, line } = readExportedValue(source);
    assert.equal(line, 11);
    const object = value as Record<string, unknown>;
    assert.deepEqual(object.docs, ['a', 'b', 'd']);
    assert.deepEqual(object.more, ['a', 'b', 'c']);
    const maybe = object.maybe as unknown[];
    assert.ok(maybe[0] instanceof Computed, 'a conditional spread is not run');
    assert.equal((maybe[0] as Computed).line, 9);
    assert.equal(maybe[1], 'y', 'the rest of the list is still read');
  });

  it('says what is computed instead of running it: calls, member access, templates with holes', () => {
    const source = "module.exports = { a: require('./x'), b: env.X, c: `${y}`, d: f() ? 1 : 2, e: 'kept' };";
    const value = readExportedValue(source).value as Record<string, unknown>;
    for (const key of ['a', 'b', 'c', 'd']) assert.ok(value[key] instanceof Computed, key);
    assert.equal(value.e, 'kept');
    assert.ok(readExportedValue('module.exports = makeSidebars();').value instanceof Computed);
  });

  it('finds nothing in a module without an export, and never throws on broken source', () => {
    assert.deepEqual(readExportedValue('const a = {};'), { value: null, line: 1 });
    for (const source of [
      'module.exports = {',
      'export default [1, 2',
      '"unterminated',
      '/* open',
      'export default }}}',
      '',
    ]) {
      readExportedValue(source);
    }
  });
});
