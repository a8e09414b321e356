/**
 * Globs as evidence (globEvidence.ts): a Copilot instruction's `applyTo` or a Cursor rule's
 * `globs` that match the files a task names count for the page; the function takes any list of
 * paths, so a change's files can be given too.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { contextIndex } from '../../../../server/src/library/context/contextIndex';
import { globEvidence, pathsIn } from '../../../../server/src/library/context/globEvidence';
import { taskSubjects } from '../../../../server/src/library/context/taskSubjects';
import { removeTempDirs } from '../../../helpers/tempWorkspace';
import { indexDir, pageText, run, writeWorkspace, type Indexed } from './herald';

const AWESOME = path.resolve(__dirname, '../../../fixtures/awesome-copilot/library');
const page = (p: string) => path.basename(p).replace(/\.(instructions\.md|mdc|md)$/, '');

describe('get_context: globs as evidence', function () {
  this.timeout(60_000);
  let lib: Indexed;
  before(async () => {
    lib = await indexDir(AWESOME, 'awesome');
  });
  after(() => {
    lib.engine.dispose();
    removeTempDirs();
  });

  it('reads the files a task names, not the names that look like files', () => {
    assert.deepEqual(pathsIn('fix the emitted event in src/components/Cart.vue and the layout of app/page.tsx.'), [
      'src/components/Cart.vue',
      'app/page.tsx',
    ]);
    assert.deepEqual(pathsIn('our Next.js 15 app on Node.js, v4.2, e.g. with https://example.com/a.html'), []);
    assert.deepEqual(pathsIn('update k8s/deployment.yaml and the Dockerfile.prod'), [
      'k8s/deployment.yaml',
      'Dockerfile.prod',
    ]);
  });

  it("matches each page's globs against any list of paths, a glob for everything matching nothing", () => {
    const byPage = (paths: string[]) =>
      Object.fromEntries(
        [...globEvidence(lib.view.docs, paths)].map(([id, files]) => [
          page(lib.view.docs.find((d) => d.id === id)!.path),
          files,
        ]),
      );
    assert.deepEqual(byPage(['src/components/Cart.vue']), { vue: ['src/components/Cart.vue'] });
    // The Symfony page applies to every YAML file (its config): that is what its globs say.
    assert.deepEqual(byPage(['deploy/api.yaml', 'services/api/Dockerfile']), {
      'containerization-docker-best-practices': ['services/api/Dockerfile'],
      'kubernetes-manifests': ['deploy/api.yaml'],
      'php-symfony': ['deploy/api.yaml'],
    });
    // A glob written for the repository root also matches the file one level down a multi-repository workspace.
    assert.deepEqual(byPage(['web/k8s/ingress.yml']), {
      'kubernetes-manifests': ['web/k8s/ingress.yml'],
      'php-symfony': ['web/k8s/ingress.yml'],
    });
    // `**` and `*` say nothing about the files: the seven pages scoped to everything are never evidence.
    assert.deepEqual(byPage(['notes/todo.txt']), {});
    assert.deepEqual(byPage([]), {});
  });

  it("makes the page the task's own when few pages match the file, and leaves it to the search when most do", async () => {
    const s = (task: string) =>
      taskSubjects({
        task,
        subjects: contextIndex(lib.view).subjects,
        docs: lib.view.docs,
        df: (t) => lib.view.state.lexical.df(t),
      });
    assert.deepEqual(
      s('the cart total is wrong in src/components/Cart.vue').forced.map((d) => page(d.path)),
      ['vue'],
    );
    const built = await run(lib.view, 'the cart total is wrong in src/components/Cart.vue');
    assert.deepEqual(
      built.bundle.reference.map((p) => [page(p.doc.path), p.reason]),
      [['vue', 'use']],
    );
    // Twelve pages apply to every .ts file: none of them is the task's for that.
    const ts = s('the total is wrong in src/lib/money.ts');
    assert.ok(ts.globs.size >= 10, `${ts.globs.size}`);
    assert.deepEqual(ts.forced, []);
  });

  it('reads globs from Cursor rules and applyTo from Copilot instructions alike', async () => {
    const dir = writeWorkspace({
      '.cursor/rules/payments.mdc': pageText(
        { description: 'Rules for the payments service', globs: 'services/payments/**/*.go' },
        '# Payments service\n\nAmounts are integers in minor units. Every call carries an idempotency key.\n',
      ),
      '.github/instructions/web.instructions.md': pageText(
        { applyTo: 'web/**/*.tsx' },
        '# Web components\n\nComponents are function components with typed props.\n',
      ),
      '.github/instructions/docs.instructions.md': pageText(
        { applyTo: '**' },
        '# Writing docs\n\nShort sentences, one idea each.\n',
      ),
    });
    const gen = await indexDir(dir, 'globs');
    try {
      const evidence = globEvidence(gen.view.docs, ['services/payments/ledger/post.go', 'web/src/Button.tsx']);
      assert.deepEqual(
        [...evidence].map(([id, files]) => [page(gen.view.docs.find((d) => d.id === id)!.path), files]).sort(),
        [
          ['payments', ['services/payments/ledger/post.go']],
          ['web', ['web/src/Button.tsx']],
        ],
      );
      const built = await run(gen.view, 'why does services/payments/ledger/post.go round the fee?');
      assert.deepEqual(
        built.bundle.reference.map((p) => page(p.doc.path)),
        ['payments'],
      );
    } finally {
      gen.engine.dispose();
    }
  });
});
