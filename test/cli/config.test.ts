/**
 * `.wsctx.yaml` through the real CLI: its source globs decide what is read, flags override it,
 * and a broken file stops the command with the file, line and key.
 */
import assert from 'node:assert/strict';
import { wsctx } from '../helpers/cli';
import { removeTempDirs, tempDir, write } from '../helpers/tempWorkspace';

const component = (name: string) => `apiVersion: backstage.io/v1alpha1
kind: Component
metadata: { name: ${name} }
spec: { type: service, lifecycle: production, owner: team-a }
`;

describe('wsctx with .wsctx.yaml', () => {
  let dir: string;
  before(() => {
    dir = tempDir('config-cli');
    write(dir, 'catalog-info.yaml', component('kept'));
    write(dir, 'legacy/catalog-info.yaml', component('old'));
    write(dir, 'services/pay/service.yaml', component('pay'));
  });
  after(removeTempDirs);

  const entities = (args: string[]): string[] => {
    const run = wsctx(['graph', '--json', '--workspace', dir, '--no-cache', ...args]);
    assert.equal(run.code, 0, run.stderr);
    return (JSON.parse(run.stdout) as { entities: { ref: string }[] }).entities.map((e) => e.ref).sort();
  };

  it("reads every YAML catalog by default, and the file's ignores and globs when it has them", () => {
    assert.deepEqual(entities([]), ['component:default/kept', 'component:default/old', 'component:default/pay']);
    write(dir, '.wsctx.yaml', 'sources:\n  ignore: ["legacy/**"]\n  catalogTargets: []\n');
    assert.deepEqual(entities([]), ['component:default/kept']);
  });

  it('lets --catalog-glob and --ignore override the file', () => {
    write(dir, '.wsctx.yaml', 'sources:\n  ignore: ["legacy/**"]\n  catalogTargets: []\n');
    assert.deepEqual(entities(['--catalog-glob', '**/*.yaml', '--ignore', 'nothing/**']), [
      'component:default/kept',
      'component:default/old',
      'component:default/pay',
    ]);
  });

  it('stops with exit code 1 naming the file, line and key of each problem', () => {
    write(dir, '.wsctx.yaml', 'sources:\n  ignore: legacy\nbudgets:\n  expandEdges: 0\n');
    const run = wsctx(['index', '--workspace', dir, '--no-cache']);
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr,
      `wsctx: 2 problems in the workspace configuration:\n${dir}/.wsctx.yaml:2: sources.ignore: expected a list of glob strings; not applied\n` +
        `${dir}/.wsctx.yaml:4: budgets.expandEdges: expected a whole number from 1 to 100 (got 0); not applied\n`,
    );
  });
});
