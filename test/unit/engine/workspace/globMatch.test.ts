/**
 * The linear-time glob matcher: picomatch's answers on the syntax the engine's globs use (a seeded
 * differential over thousands of generated globs and paths), the deliberate differences, and the
 * globs that made picomatch's regular expressions backtrack for minutes.
 */
import * as assert from 'node:assert/strict';
import picomatch from 'picomatch';
import { checkSetting, MAX_SETTING_GLOB_LENGTH } from '../../../../shared/settings';
import { compileProgram, LazyDfa } from '../../../../server/src/engine/workspace/globAutomaton';
import { GlobBudget } from '../../../../server/src/engine/workspace/globBudget';
import {
  compileGlob,
  compileGlobs,
  globLiteralFolder,
  globProblem,
  globSize,
  isGlobPattern,
  MAX_GLOB_LENGTH,
  MAX_GLOB_PROGRAM,
} from '../../../../server/src/engine/workspace/globMatch';
import { parse } from '../../../../server/src/engine/workspace/globParse';
import { compileSourceGlobs, DEFAULT_SOURCE_GLOBS } from '../../../../server/src/engine/workspace/globs';

/** A small deterministic generator (the same cases on every run). */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] };
}

const ATOMS = [
  'a',
  'b',
  'A',
  '.',
  'ab',
  '.a',
  '*',
  '?',
  '\\*',
  '[ab]',
  '[a-b]',
  '[A-b]',
  '[[:alpha:]]',
  '[[:upper:]]',
  '{a,b}',
  '{a,.b}',
  '{a,b/c}',
  'x{,a}',
  '{a..c}',
  '{1..3}',
  '(a|b)',
  '@(a|b)',
  '+(a|b)',
  '*(a|ab)',
  '?(a|b)',
];
const NAME_CHARS = ['a', 'a', 'b', 'c', '.', 'A', '*', '1', '2'];

describe('engine/workspace/globMatch', () => {
  it('answers as picomatch does on generated globs and paths (dot and nocase both ways)', () => {
    const { next, pick } = generator(28);
    const glob = (): string => {
      const segments: string[] = [];
      for (let s = 1 + Math.floor(next() * 3); s > 0; s--) {
        if (next() < 0.2) {
          segments.push('**');
          continue;
        }
        let segment = '';
        for (let k = 1 + Math.floor(next() * 3); k > 0; k--) {
          const atom = pick(ATOMS);
          // picomatch reads `)?` as a regular expression's optional group, and `)*` as neither a
          // star nor a globstar: not globs anyone writes.
          if (!((atom === '?' || atom === '*') && segment.endsWith(')'))) segment += atom;
        }
        segments.push(segment);
      }
      return segments.join('/');
    };
    const path = (): string => {
      const segments: string[] = [];
      for (let s = 1 + Math.floor(next() * 3); s > 0; s--) {
        let segment = '';
        for (let k = 1 + Math.floor(next() * 3); k > 0; k--) segment += pick(NAME_CHARS);
        // Paths are normalised: no `.` or `..` segments.
        segments.push(segment === '.' || segment === '..' ? `a${segment}` : segment);
      }
      return segments.join('/');
    };
    const differences: string[] = [];
    let compared = 0;
    for (let g = 0; g < 1500; g++) {
      const pattern = glob();
      const paths = Array.from({ length: 20 }, path);
      for (const options of [{}, { dot: true }, { nocase: true }, { dot: true, nocase: true }]) {
        const theirs = picomatch(pattern, options);
        const ours = compileGlob(pattern, options);
        for (const p of paths) {
          compared++;
          if (theirs(p) !== ours(p))
            differences.push(
              `${JSON.stringify(pattern)} ${JSON.stringify(options)} ${JSON.stringify(p)}: picomatch ${theirs(p)}`,
            );
        }
      }
    }
    assert.deepEqual(differences.slice(0, 10), []);
    assert.equal(compared, 1500 * 20 * 4);
  });

  it('reads the engine globs as before: globstars, dot names, braces, a path equal to the glob', () => {
    const cases: [string, string, boolean, { dot?: boolean; nocase?: boolean }?][] = [
      ['**/catalog-info.{yaml,yml}', 'catalog-info.yaml', true],
      ['**/catalog-info.{yaml,yml}', 'a/.hidden/catalog-info.yml', false],
      ['**/catalog-info.{yaml,yml}', 'a/.hidden/catalog-info.yml', true, { dot: true }],
      ['.context/**', '.context', true],
      ['.context/**', '.context/a/b.md', true],
      ['**/fixtures/**', 'test/fixtures', true],
      ['a/**/b', 'a/b', true],
      ['*/**', 'a', false],
      ['*.md', '.md', false],
      ['.github/*', '.github/x.md', true],
      ['{a,b/c}/d', 'b/c/d', true],
      ['a/**b', 'a/x/b', false],
      ['catalog/a[1].yaml', 'catalog/a[1].yaml', true],
      ['catalog/a[1].yaml', 'catalog/a1.yaml', true],
      ['!**/*.md', 'a.md', false],
      ['!**/*.md', 'a.txt', true],
      ['./docs/*.md', 'docs/a.md', true],
      ['OVERVIEW.md', 'overview.MD', true, { nocase: true }],
      ['[!a]', 'b', true],
      ['[!a]', 'a', false],
      ['[^a]x', '.x', false],
      ['[^a]x', '.x', true, { dot: true }],
      ['[a/b]x', 'a/bx', false],
    ];
    for (const [glob, path, expected, options] of cases)
      assert.equal(compileGlob(glob, options)(path), expected, `${glob} ${path}`);
    assert.equal(compileGlobs(['*.md', '!docs/**'])('docs/a.txt'), false);
    assert.equal(compileGlobs(['*.md', '!docs/**'])('src/a.txt'), true);
    assert.equal(compileGlobs([])('a'), false);
  });

  it('matches the globs that made picomatch backtrack for minutes, at once', () => {
    // picomatch turned this into /[^/]*?a[^/]*?a...b/: about a minute of CPU for one 60-character name.
    const hostile = compileGlob('*a*a*a*a*a*a*a*a*a*a*a*a*b');
    assert.equal(hostile('a'.repeat(5000)), false);
    assert.equal(hostile(`${'a'.repeat(5000)}b`), true);
    const nested = compileGlob('**/*(a|aa|aaa)*(a|aa)+(a|aa)b');
    assert.equal(nested(`x/${'a'.repeat(5000)}`), false);
    const braces = compileGlob(`${'{a,b}'.repeat(150)}c`);
    assert.equal(braces(`${'ab'.repeat(75)}c`), true);
    assert.equal(braces(`${'ab'.repeat(75)}d`), false);
  });

  it('says which globs it cannot use, and a glob past the length cap matches nothing', () => {
    assert.equal(globProblem('**/*.md'), undefined);
    assert.equal(
      globProblem('x'.repeat(MAX_GLOB_LENGTH + 1)),
      `a glob may be at most ${MAX_GLOB_LENGTH} characters long (this one has ${MAX_GLOB_LENGTH + 1})`,
    );
    assert.match(globProblem('*.!(md)')!, /^"!\(\.\.\.\)" inside a glob is not supported/);
    assert.equal(globProblem('!docs/**'), undefined);
    assert.equal(compileGlob(`${'*'.repeat(MAX_GLOB_LENGTH)}x`)('ax'), false);
    // The settings refuse what the engine would ignore, with the same words.
    assert.equal(MAX_SETTING_GLOB_LENGTH, MAX_GLOB_LENGTH);
    const spec = { key: 'sources.ignore', type: 'globs', description: '' } as const;
    assert.deepEqual(checkSetting(spec, ['*.!(md)']), { ok: false, error: `"*.!(md)": ${globProblem('*.!(md)')}` });
    assert.deepEqual(checkSetting(spec, ['x'.repeat(MAX_GLOB_LENGTH + 1)]), {
      ok: false,
      error: `"${'x'.repeat(57)}...": ${globProblem('x'.repeat(MAX_GLOB_LENGTH + 1))}`,
    });
    assert.deepEqual(checkSetting(spec, [' **/*.md ', '']), { ok: true, value: ['**/*.md'] });
    assert.equal(isGlobPattern('docs/a.yaml'), false);
    assert.equal(isGlobPattern('docs/\\*.yaml'), false);
    for (const glob of ['docs/*.yaml', 'a?.yaml', '{a,b}.yaml', '[ab].yaml', '@(a|b).yaml'])
      assert.equal(isGlobPattern(glob), true, glob);
  });

  it('reads a numeric range as its values written out, as a few digit sets: {1..1000} is 19 instructions, not 5,000', () => {
    // picomatch 4 reads `{5..20}` as a set of characters (`[20-5]`), so the reference is the
    // values themselves, as the matcher expanded them before.
    const { next } = generator(41);
    const differences: string[] = [];
    for (let g = 0; g < 300; g++) {
      const a = Math.floor(next() * 2400) - 1200;
      const b = a + Math.floor(next() * 1000);
      const values = new Set(Array.from({ length: b - a + 1 }, (_, k) => `x${a + k}y`));
      const ours = compileGlob(`x{${a}..${b}}y`);
      for (let k = 0; k < 60; k++) {
        const n = Math.floor(next() * 3000) - 1500;
        for (const p of [`x${n}y`, `x0${Math.abs(n)}y`, `x-0${Math.abs(n)}y`, `x${n}${Math.abs(n)}y`])
          if (ours(p) !== values.has(p)) differences.push(`{${a}..${b}} ${p}: ${ours(p)}`);
      }
    }
    assert.deepEqual(differences.slice(0, 10), []);
    assert.deepEqual(globSize('{1..1000}'), { ok: true, instructions: 19 });
    assert.deepEqual(['x1y', 'x0y', 'x10y', 'x999y', 'x1000y', 'x1001y', 'x01y'].map(compileGlob('x{1..1000}y')), [
      true,
      false,
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it("bounds a glob's program before it is built: the build stops at the cap, and a glob past it matches nothing", () => {
    const nodes = [parse('*/'.repeat(400))];
    const whole = compileProgram(nodes, {});
    assert.ok(whole && whole.op.length > 1000 && whole.op.length < MAX_GLOB_PROGRAM, String(whole?.op.length));
    assert.equal(compileProgram(nodes, {}, whole.op.length - 1), undefined);
    assert.equal(compileProgram(nodes, {}, whole.op.length)?.op.length, whole.op.length);
    // No glob within the length cap reaches the program cap: the widest constructs, at 1,024 characters.
    for (const widest of [
      '*/'.repeat(512),
      '?/'.repeat(512),
      '{,}'.repeat(341),
      '*(|)'.repeat(256),
      '{1..1000}'.repeat(113),
    ]) {
      const size = globSize(widest);
      assert.ok(size.ok && size.instructions < MAX_GLOB_PROGRAM, `${widest.slice(0, 12)}: ${JSON.stringify(size)}`);
    }
  });

  it('names the literal folder of a glob, so a Location target tests only the files under it', () => {
    assert.equal(globLiteralFolder('catalogs/{1..9}/x.yaml'), 'catalogs');
    assert.equal(globLiteralFolder('a/b/*.yaml'), 'a/b');
    assert.equal(globLiteralFolder('a\\*b/c/*.yaml'), 'a*b/c');
    assert.equal(globLiteralFolder('**/x.yaml'), '');
    assert.equal(globLiteralFolder('ab*/x.yaml'), '');
    assert.equal(globLiteralFolder('!a/*.yaml'), '');
  });

  it('budgets the glob work of a pass: instructions compiled and matching steps, a refused glob charging nothing', () => {
    const budget = new GlobBudget(100, 1000);
    assert.equal(budget.compile(60), undefined);
    assert.match(
      budget.compile(50)!,
      /^the Location globs of one pass may compile to 100 automaton instructions in all, and 60 are taken \(this one needs 50\)/,
    );
    assert.equal(budget.compile(40), undefined);
    assert.equal(budget.work(1000), undefined);
    assert.match(
      budget.work(1)!,
      /^the Location globs of one pass may take 1,000 matching steps in all, and they are spent/,
    );
    // Once spent, the next glob is refused before it is compiled.
    assert.match(budget.compile(1)!, /matching steps in all, and they are spent/);
  });

  it('past its table of 4,096 states an automaton runs state by state, and answers as before', () => {
    // `a` then 12 characters: the DFA of this is 2^12 states and more, filled on the first paths.
    const glob = '**/*a????????????.md';
    const { next, pick } = generator(7);
    const paths = Array.from(
      { length: 1500 },
      () =>
        `d/${Array.from({ length: 10 + Math.floor(next() * 60) }, () => pick(['a', 'b', 'a', 'b', '.'])).join('')}.md`,
    );
    const theirs = picomatch(glob, { dot: true });
    const ours = new LazyDfa(compileProgram([parse(glob)], { dot: true })!, false);
    const differences = paths.filter((p) => ours.matches(p) !== theirs(p));
    assert.ok(ours.runsDirectly, 'the table filled');
    assert.deepEqual(differences.slice(0, 5), []);
    assert.ok(ours.work > paths.length, String(ours.work));
  });

  it("leaves out the source globs past their budget, never another role's defaults, and says which", () => {
    const range = Array.from({ length: 20 }, () => '{1..1000}').join('/');
    const many = Array.from({ length: 12 }, (_, i) => `${range}/x${i}.yaml`);
    const matcher = compileSourceGlobs({ catalog: many, ignore: ['**/fixtures/**'] });
    const kept = matcher.globs.catalog.length;
    assert.ok(kept > 0 && kept < 12, String(kept));
    assert.deepEqual(
      matcher.refused.map((r) => [r.key, r.glob]),
      many.slice(kept).map((g) => ['catalog', g]),
    );
    // A smaller glob after them still fits; no other role's defaults are crowded out.
    assert.deepEqual(matcher.globs.ignore, ['**/fixtures/**']);
    assert.deepEqual(matcher.globs.library, DEFAULT_SOURCE_GLOBS.library);
    assert.match(matcher.refused[0].reason, /^the source globs may compile to 2,048 automaton instructions in all/);
    assert.deepEqual(compileSourceGlobs({}).refused, []);
    assert.deepEqual(compileSourceGlobs({}).globs, { ...DEFAULT_SOURCE_GLOBS });
    // Globs naming one file each are compared as strings: a list of 2,000 costs the automaton nothing.
    const files = Array.from({ length: 2000 }, (_, i) => `guides/page-${i}.md`);
    const listed = compileSourceGlobs({ library: files });
    assert.deepEqual(listed.refused, []);
    assert.deepEqual(listed.roles('guides/page-1999.md'), ['library', 'docs', 'markdown']);
    assert.deepEqual(listed.roles('guides/page-2000.md'), ['docs', 'markdown']);
  });
});
