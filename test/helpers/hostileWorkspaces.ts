/**
 * Workspaces written by an attacker, shared by the CLI, MCP and language-server tests that run
 * the same attack through each host.
 */
import { write } from './tempWorkspace';

/**
 * Globs the workspace writes (a Location target, `.wsctx.yaml`'s `sources.*`) that made the old
 * matcher backtrack for minutes on one long file name (`*a*a*...b` against `aaaa...`). Each run
 * is killed after 60 s: before the linear matcher none finished.
 */
export function writeBacktrackingGlobs(ws: string): void {
  const stars = (end: string) => `${'*a'.repeat(12)}*${end}`;
  write(
    ws,
    'catalog-info.yaml',
    [
      'apiVersion: backstage.io/v1alpha1\nkind: Location\nmetadata:\n  name: many\nspec:\n  targets:',
      `    - './catalogs/${stars('b')}.yaml'`,
      '---',
      'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: billing-worker\nspec:\n  type: service\n  owner: payments\n  lifecycle: production\n',
    ].join('\n'),
  );
  // A long name every glob tries (and none matches), and the one file the target does match.
  write(ws, `catalogs/${'a'.repeat(80)}.yaml`, 'title: not a catalog file\n');
  write(
    ws,
    `catalogs/${'a'.repeat(14)}b.yaml`,
    'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: located-by-glob\nspec:\n  type: service\n  owner: payments\n  lifecycle: production\n',
  );
  write(ws, `.context/${'a'.repeat(80)}.md`, '# Long\n\nA page with a long name.\n');
  write(
    ws,
    '.wsctx.yaml',
    `sources:\n  catalog: ['**/catalog-info.yaml', '**/${stars('d')}.yaml']\n  ignore: ['**/${stars('c')}']\n`,
  );
}

const COMPONENT = (name: string) =>
  `apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: ${name}\nspec:\n  type: service\n  owner: payments\n  lifecycle: production\n`;

/** A glob of `{1..1000}` ranges just under the 1,024-character limit (the audit's: each one was 5,000 automaton states per range). */
export function rangeGlob(prefix: string, index: number): string {
  const ranges = Array.from({ length: 99 }, () => '{1..1000}').join('/');
  return `${prefix}${ranges}/x${index}.yaml`;
}

/**
 * A catalog `Location` with 200 (or `count`) targets built from `{1..1000}` ranges (about 200 KB, no
 * `.wsctx.yaml` needed): before the globs were sized and budgeted, 40 of them took 24.6 s and
 * 200 took minutes. The first target is an honest range that names one catalog file.
 * Returns the targets in the order written, and the line of each (1-based).
 */
export function writeRangeLocationTargets(ws: string, count = 200): { targets: string[]; lines: number[] } {
  const targets = [
    './catalogs/{1..1000}/catalog-info.yaml',
    ...Array.from({ length: count }, (_, i) => rangeGlob('./catalogs/', i)),
  ];
  const head = [
    'apiVersion: backstage.io/v1alpha1',
    'kind: Location',
    'metadata:',
    '  name: ranges',
    'spec:',
    '  targets:',
  ];
  write(
    ws,
    'catalog-info.yaml',
    [...head, ...targets.map((t) => `    - '${t}'`), '---', COMPONENT('billing-worker')].join('\n'),
  );
  write(ws, 'catalogs/7/catalog-info.yaml', COMPONENT('located-by-range'));
  return { targets, lines: targets.map((_, i) => head.length + 1 + i) };
}

/**
 * The same globs in `.wsctx.yaml`: 250 of them as `sources.catalog` (about 250 KB, under the
 * file's 256 KiB cap), which before took minutes and gigabytes to compile into one automaton.
 * `sources.ignore` beside them is an honest key that stays applied.
 */
export function writeRangeSourceGlobs(ws: string): void {
  const globs = Array.from({ length: 250 }, (_, i) => `'${rangeGlob('', i)}'`);
  write(ws, '.wsctx.yaml', `sources:\n  ignore: ['**/fixtures/**']\n  catalog: [${globs.join(', ')}]\n`);
  write(ws, 'catalog-info.yaml', COMPONENT('billing-worker'));
  write(ws, 'fixtures/catalog-info.yaml', COMPONENT('fixture-only'));
}
