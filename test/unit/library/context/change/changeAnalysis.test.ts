/**
 * What a change touches, read off real workspaces: the example (examples/fernhill: TechDocs
 * folders, package folders, API definitions, files named for an entity, catalog entries, epics,
 * instruction files with globs, AGENTS.md, expectations) and RoadieHQ's plugin monorepo
 * (test/fixtures/roadie-backstage-plugins: a catalog file per plugin, source-location URLs, a
 * root component for the plugins without one).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Engine, InputError, type IndexState, parseExpectations } from '../../../../../server/src/engine';
import {
  analyseChange,
  type ChangeAnalysis,
  type ChangeInput,
} from '../../../../../server/src/library/context/change/changeAnalysis';
import { libraryView, type LibraryView } from '../../../../../server/src/library/view/libraryView';
import { EXAMPLE_WORKSPACE, removeTempDirs, tempDir } from '../../../../helpers/tempWorkspace';

const ROADIE = path.resolve(__dirname, '../../../../fixtures/roadie-backstage-plugins');
const DIFFS = path.resolve(__dirname, '../../../../../bench/corpora/changes/diffs');
const BW = 'payments-platform/services/billing-worker';

describe('what a change touches (library/context/change/changeAnalysis.ts)', function () {
  this.timeout(60_000);
  let fernhill: { engine: Engine; state: IndexState; view: LibraryView };
  let roadie: { engine: Engine; state: IndexState; view: LibraryView };
  const open = async (name: string, dir: string) => {
    const engine = new Engine({ folders: [{ name, absPath: dir }], settings: { refreshAfterMs: 0 } });
    const state = await engine.waitForIndex();
    return { engine, state, view: libraryView(state, '2026-06-01') };
  };
  before(async () => {
    fernhill = await open('fernhill', EXAMPLE_WORKSPACE);
    roadie = await open('roadie-backstage-plugins', ROADIE);
  });
  after(() => {
    fernhill.engine.dispose();
    roadie.engine.dispose();
    removeTempDirs();
  });
  const expectations = () => {
    const file = '.wsctx/expectations.yaml';
    const parsed = parseExpectations(file, fs.readFileSync(path.join(EXAMPLE_WORKSPACE, file), 'utf8'));
    return [{ path: file, prefix: '', expectations: parsed.expectations }];
  };
  const analyse = (ws: typeof fernhill, input: ChangeInput, hops: 1 | 2 = 1): ChangeAnalysis =>
    analyseChange(ws.state, ws.view.docs, input, { hops });
  const paths = (ws: typeof fernhill, changedPaths: string[], hops: 1 | 2 = 1) =>
    analyse(ws, { request: { changedPaths }, expectations: expectations() }, hops);
  const diff = (ws: typeof fernhill, name: string, hops: 1 | 2 = 1) =>
    analyse(
      ws,
      { request: { diff: fs.readFileSync(path.join(DIFFS, name), 'utf8') }, expectations: expectations() },
      hops,
    );
  const owners = (a: ChangeAnalysis) =>
    a.owned.map((e) => `${e.ref} ${e.owner} ${e.evidence.map((v) => v.kind).join('+')}`);

  it('owns a service file by its TechDocs folder, with owner and lifecycle; brings its runbooks, docs overview, epic and rules', () => {
    const a = paths(fernhill, [`${BW}/src/worker.ts`]);
    assert.deepEqual(owners(a), ['component:default/billing-worker group:default/payments-team techdocs-dir']);
    assert.equal(a.owned[0].lifecycle, 'production');
    assert.deepEqual(a.unowned, []);
    assert.deepEqual(a.dependents, [], 'nothing in the example depends on billing-worker');
    assert.deepEqual(
      a.pages.map((p) => `${p.reason} ${p.doc.path}`),
      [
        `runbook ${BW}/docs/runbooks/alerts.md`,
        `runbook ${BW}/docs/runbooks/deploy.md`,
        `runbook ${BW}/docs/runbooks/dunning.md`,
        // The repository's README, which the index attaches to the repository's own entities.
        'doc payments-platform/README.md',
        `doc ${BW}/docs/index.md`,
        'epic payments-platform/epics/smart-dunning.md',
      ],
    );
    // Globs first (by how many paths they match), then AGENTS.md and CLAUDE.md nearest first, then repository-wide.
    assert.deepEqual(
      a.rules.map((r) => `${r.why} ${r.doc.path}`),
      [
        'globs .cursor/rules/money-and-pci.mdc',
        'globs .github/instructions/typescript.instructions.md',
        'folder payments-platform/AGENTS.md',
        'folder AGENTS.md',
        'folder CLAUDE.md',
        'repository .github/copilot-instructions.md',
      ],
    );
    assert.equal(
      a.rules.some((r) => r.doc.path.includes('storefront-react') || r.doc.path.includes('migrations')),
      false,
      'globs that match no changed path',
    );
  });

  it('owns an API definition file as the API and the component serving it, and lists its consumers first', () => {
    const a = diff(fernhill, 'f03.diff', 2);
    assert.deepEqual(owners(a), [
      'api:default/ledger-api group:default/ledger-team api-definition',
      'component:default/ledger-service group:default/ledger-team techdocs-dir',
    ]);
    assert.deepEqual(
      a.dependents.map((d) => `${d.hop} ${d.ref} ${d.via.map((v) => `${v.relation} ${v.api ?? v.on}`).join(', ')}`),
      [
        '1 component:default/billing-worker consumesApi api:default/ledger-api',
        '1 component:default/invoice-api consumesApi api:default/ledger-api',
        '2 component:default/storefront-bff consumesApi api:default/invoice-rest-api',
      ],
    );
    assert.deepEqual(
      a.pages.filter((p) => p.reason === 'epic').map((p) => p.doc.path),
      ['payments-platform/epics/ledger-multi-currency-payouts.md'],
    );
  });

  it('owns by a package folder named for the entity (also by a package title), and by a file named for it', () => {
    assert.deepEqual(
      owners(paths(fernhill, ['payments-platform/services/payments-gateway/src/main/kotlin/Charge.kt'])),
      ['component:default/payments-gateway group:default/payments-team package'],
    );
    assert.deepEqual(owners(paths(fernhill, ['payments-platform/libs/money/src/allocate.ts'])), [
      'component:default/fernhill-money group:default/ledger-team package',
    ]);
    assert.deepEqual(owners(paths(fernhill, ['platform-infra/alerts/billing-worker.rules.yaml'])), [
      'component:default/billing-worker group:default/payments-team file-name',
    ]);
    // A file named like no entity in the same repository belongs to the folder's owner.
    assert.deepEqual(owners(paths(fernhill, ['platform-infra/terraform/modules/sqs/main.tf'])), [
      'component:default/deploy-pipeline group:default/platform-team techdocs-dir',
    ]);
  });

  it('gives a changed catalog file to the entities whose lines the diff touches (all of them without a diff)', () => {
    const a = diff(fernhill, 'f11.diff');
    assert.deepEqual(owners(a), ['component:default/checkout-web group:default/storefront-team catalog-entry']);
    assert.deepEqual(
      a.expectations.map((e) => [e.line, e.question, e.pages]),
      [[22, 'who owns checkout-web?', [{ page: 'component:default/checkout-web', kind: 'expect' }]]],
    );
    const whole = paths(fernhill, ['storefront/catalog-info.yaml']);
    assert.ok(whole.owned.length > 5, 'every entity the file declares');
    assert.ok(whole.owned.every((e) => e.evidence[0].kind === 'catalog-entry'));
  });

  it('lists paths no entity owns, the changed page is not repeated, and the expectations it touches', () => {
    const a = diff(fernhill, 'f12.diff');
    assert.deepEqual(a.owned, []);
    assert.deepEqual(a.unowned, ['.context/reference/refund-policy.md']);
    assert.deepEqual(
      a.expectations.map((e) => e.question),
      ['refund window after a downgrade'],
    );
    const doc = paths(fernhill, [`${BW}/docs/runbooks/deploy.md`]);
    assert.equal(
      doc.pages.some((p) => p.doc.path.endsWith('deploy.md')),
      false,
    );
    assert.deepEqual(
      doc.expectations.map((e) => e.question),
      ['how do I roll back billing-worker?'],
    );
  });

  it('in a plugin monorepo: each plugin by its catalog file, the rest by the root component, each with its package README', () => {
    const a = paths(roadie, [
      'plugins/frontend/backstage-plugin-iframe/src/transforms.ts',
      'plugins/backend/rag-ai-backend-retrieval-augmenter/src/x.ts',
      '.changeset/brave-cats.md',
    ]);
    // The repository's root component, which owns the files no plugin claims, comes last.
    assert.deepEqual(owners(a), [
      'component:default/backstage-plugin-iframe group:default/open-source source-location',
      'component:default/roadie-backstage-plugins group:default/open-source catalog-place',
    ]);
    assert.deepEqual(
      a.pages.map((p) => p.doc.path),
      [
        'plugins/frontend/backstage-plugin-iframe/README.md',
        'plugins/backend/rag-ai-backend-retrieval-augmenter/README.md',
      ],
      "neither .changeset's README nor another package's docs",
    );
  });

  it('places paths given with the folder name in front, and refuses paths outside a folder by field', () => {
    assert.deepEqual(
      paths(fernhill, [`fernhill/${BW}/src/worker.ts`, `./${BW}/src/worker.ts`]).files.map((f) => f.path),
      [`${BW}/src/worker.ts`],
    );
    for (const [given, message] of [
      ['/etc/passwd', /^changes\.changedPaths\[0\]: "\/etc\/passwd" is absolute/],
      ['../secrets.txt', /^changes\.changedPaths\[0\]: "\.\.\/secrets\.txt" leaves its folder/],
    ] as const)
      assert.throws(
        () => paths(fernhill, [given]),
        (e: Error) => e instanceof InputError && message.test(e.message),
      );
    const refuses = (input: ChangeInput, message: RegExp) =>
      assert.throws(
        () => analyse(fernhill, input),
        (e: Error) => e instanceof InputError && message.test(e.message),
      );
    refuses({ request: { changedPaths: ['a'], diff: 'x' } }, /^changes: give changedPaths or diff, not both/);
    refuses({ request: { diff: 'no diff here' } }, /^changes\.diff: names no file/);
    refuses({ request: { changedPaths: [] } }, /^changes\.changedPaths: name at least one/);
  });

  it('with several folders, puts an unprefixed path in the one folder that holds its top folder, or refuses naming them', async () => {
    const other = tempDir('other');
    fs.mkdirSync(path.join(other, 'docs'), { recursive: true });
    fs.writeFileSync(path.join(other, 'docs', 'index.md'), '# Other\n\nText.\n');
    const engine = new Engine({
      folders: [
        { name: 'fernhill', absPath: EXAMPLE_WORKSPACE },
        { name: 'other', absPath: other },
      ],
      settings: { refreshAfterMs: 0 },
    });
    try {
      const state = await engine.waitForIndex();
      const view = libraryView(state, '2026-06-01');
      const a = analyseChange(
        state,
        view.docs,
        { request: { changedPaths: [`${BW}/src/worker.ts`, 'other/docs/x.md'] } },
        { hops: 1 },
      );
      assert.deepEqual(
        a.files.map((f) => f.path),
        [`fernhill/${BW}/src/worker.ts`, 'other/docs/x.md'],
      );
      assert.deepEqual(
        a.owned.map((e) => e.ref),
        ['component:default/billing-worker'],
      );
      assert.throws(
        () => analyseChange(state, view.docs, { request: { changedPaths: ['nowhere/x.ts'] } }, { hops: 1 }),
        (e: Error) =>
          e instanceof InputError &&
          /^changes\.changedPaths\[0\]: "nowhere\/x\.ts" is in no served folder; put the folder's name in front \(served: fernhill, other\)/.test(
            e.message,
          ),
      );
    } finally {
      engine.dispose();
    }
  });
});
