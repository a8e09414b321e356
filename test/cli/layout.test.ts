/**
 * What a person reads at 80 and at 120 columns, on real inputs nobody here wrote (Argo CD's docs,
 * Backstage's example catalog) and on the example workspace: every heading path, entity name and
 * `path:lines` whole, a `file:` link per passage, and no line past `$COLUMNS` except a link or a
 * path that is longer than the line by itself (those are never cut).
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { shortRef } from '../../server/src/cli/commands/entityLine';
import { wsctx } from '../helpers/cli';
import { EXAMPLE_WORKSPACE } from '../helpers/tempWorkspace';

const FIXTURES = path.resolve(__dirname, '../fixtures');
const ARGOCD = ['--workspace', path.join(FIXTURES, 'argocd-docs')];
const BACKSTAGE = ['--workspace', path.join(FIXTURES, 'backstage-catalog-examples')];
const FERNHILL = ['--workspace', EXAMPLE_WORKSPACE];

interface Passage {
  title: string;
  headingPath: string[];
  sourceRef: { path: string; startLine: number; endLine: number };
  sourceUri: string;
}

/** Lines wider than `columns`, less those that are one unbreakable link or path (alone, or with its label). */
function overWide(text: string, columns: number): string[] {
  return text
    .split('\n')
    .filter((l) => l.length > columns && !/^ *(file:\/\/\S+|\S+:\d+(-\d+)?|declared at \S+)$/.test(l));
}

/** The text with each line's indent gone and lines joined by one space: what wrapping never changes. */
function unwrapped(text: string): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .join(' ');
}

for (const columns of [80, 120]) {
  const env = { COLUMNS: String(columns) };

  describe(`wsctx output at ${columns} columns`, () => {
    it('ask on Argo CD docs: whole heading paths, the full path:lines and a file: link for every passage', () => {
      const question = ['ask', 'how do I configure sync waves and hooks?', ...ARGOCD, '--limit', '8'];
      const json = JSON.parse(wsctx([...question, '--json']).stdout) as { passages: Passage[] };
      assert.equal(json.passages.length, 8);
      const run = wsctx(question, { env });
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(overWide(run.stdout, columns), []);
      const text = unwrapped(run.stdout);
      json.passages.forEach((p, i) => {
        const heading = [p.title, ...p.headingPath.filter((h) => h !== p.title)].join(' › ');
        assert.match(
          text,
          new RegExp(`${i + 1}\\. \\d\\.\\d{3} +${escapeRegExp(heading)} `),
          `passage ${i + 1}'s heading path "${heading}" is cut`,
        );
        assert.ok(
          run.stdout.includes(`${p.sourceRef.path}:${p.sourceRef.startLine}-${p.sourceRef.endLine}`),
          `passage ${i + 1}: no full path:lines`,
        );
        assert.ok(run.stdout.includes(`\n     ${p.sourceUri}\n`), `passage ${i + 1}: no file: link`);
        assert.match(p.sourceUri, /^file:\/\/\//);
      });
      assert.doesNotMatch(run.stdout, /› [^\n]*…\n/, 'a heading ends in an ellipsis');
    });

    it("ask on the example: each passage's entity, owner and neighbours, no name cut", () => {
      const question = ['ask', 'who owns billing-worker?', ...FERNHILL, '--limit', '4'];
      const json = JSON.parse(wsctx([...question, '--json']).stdout) as {
        neighbourhood: { entity: string; edges: { type: string; target: string }[] }[];
      };
      const run = wsctx(question, { env });
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(overWide(run.stdout, columns), []);
      const worker = json.neighbourhood.find((n) => n.entity === 'component:default/billing-worker')!;
      for (const edge of worker.edges.filter((e) => e.type !== 'ownedBy')) {
        assert.match(
          run.stdout,
          new RegExp(`[ ,]${escapeRegExp(shortRef(edge.target, false))}(,|\\n| ·)`),
          `${edge.target} is cut or missing`,
        );
      }
      assert.doesNotMatch(run.stdout, /^ {5}component:[^\n]*…$/m);
    });

    it("expand on Backstage's example catalog: every ref of every edge whole, namespaced ones too", () => {
      const walk = ['expand', 'group:team-a', ...BACKSTAGE, '--depth', '2'];
      const json = JSON.parse(wsctx([...walk, '--json']).stdout) as { edges: { source: string; target: string }[] };
      assert.ok(
        json.edges.some((e) => e.target === 'user:development/guest'),
        'the walk reaches the namespaced user',
      );
      const run = wsctx(walk, { env });
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(overWide(run.stdout, columns), []);
      for (const edge of json.edges) {
        for (const ref of [edge.source, edge.target])
          assert.match(
            run.stdout,
            new RegExp(`(^|\\s)${escapeRegExp(shortRef(ref))}(\\s|$)`, 'm'),
            `${ref} is cut or missing`,
          );
      }
      assert.doesNotMatch(run.stdout, /[a-z]…\s/, 'a ref ends in an ellipsis');
    });

    it('graph is text by default: every entity and the relations it declares, no name cut', () => {
      const json = JSON.parse(wsctx(['graph', ...BACKSTAGE, '--json']).stdout) as {
        entities: { ref: string; sourceRef: string }[];
        edges: { source: string; type: string; target: string }[];
      };
      const run = wsctx(['graph', ...BACKSTAGE], { env });
      assert.equal(run.code, 0, run.stderr);
      assert.throws(() => JSON.parse(run.stdout));
      assert.deepEqual(overWide(run.stdout, columns), []);
      assert.match(run.stdout, new RegExp(`^${json.entities.length} entities, `));
      for (const e of json.entities)
        assert.match(
          run.stdout,
          new RegExp(
            `\\n\\n${escapeRegExp(shortRef(e.ref))}( \\([^\\n]*)?\\n {2}declared at\\s+${escapeRegExp(e.sourceRef)}\\n`,
          ),
          e.ref,
        );
      const ownedBy = json.edges.filter((e) => e.type === 'ownedBy');
      assert.ok(ownedBy.length > 10);
      for (const e of ownedBy)
        assert.match(
          run.stdout,
          new RegExp(
            `\\n\\n${escapeRegExp(shortRef(e.source))}[^]*?\\n  ownedBy ${escapeRegExp(shortRef(e.target))}( \\[unresolved\\])?\\n`,
          ),
          `${e.source} ownedBy ${e.target}`,
        );
    });
  });
}

describe('wsctx index on a real docs site: repeated problems grouped', () => {
  it('prints a problem seen 11 times once, with its count and first place; --verbose lists each', () => {
    const run = wsctx(['index', ...ARGOCD, '--no-cache']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /\nProblems \(11\):\n {2}warning frontmatter\.yaml: 11 times \(--verbose lists each\), first:\n {4}docs\/\S+\.md:\d+: warning frontmatter\.yaml: Invalid YAML in front matter/,
    );
    const verbose = wsctx(['index', ...ARGOCD, '--no-cache', '--verbose']);
    assert.equal(verbose.stdout.split('\n').filter((l) => / warning frontmatter\.yaml: /.test(l)).length, 11);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
