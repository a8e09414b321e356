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
