import assert from 'node:assert/strict';
import { wsctx as wsctxWide } from '../helpers/cli';
import { EXAMPLE_WORKSPACE } from '../helpers/tempWorkspace';

/** These tests read the layout at the documented default width, 100 columns (unless one sets its own). */
const wsctx: typeof wsctxWide = (args, options = {}) =>
  wsctxWide(args, { ...options, env: { COLUMNS: '100', ...options.env } });

const WS = ['--workspace', EXAMPLE_WORKSPACE];

describe('wsctx CLI on the example workspace', () => {
  it('index prints counts by source kind, entities by kind, edges, unresolved refs and problems', () => {
    const run = wsctx(['index', ...WS]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^Indexed fernhill in [\d.]+ (ms|s): \d+ files \(\d+ read\), 136 documents, \d+ sections\./,
    );
    assert.match(run.stdout, /Documents by source kind:\n  catalog_entity\s+66\n/);
    assert.match(run.stdout, /Entities by kind \(66\):\n  Component\s+20\n/);
    assert.match(
      run.stdout,
      // Past 100 columns: the declaration wraps beneath, indented under its line.
      /Unresolved refs \(1\):\n  component:default\/order-export --dependsOn--> resource:default\/legacy-fax-gateway\n {4}storefront\/catalog\/legacy-entities\.yaml:18\n/,
    );
    assert.match(
      run.stdout,
      /storefront\/catalog\/legacy-entities\.yaml:25: error catalog\.invalid-entity: metadata\.name "promo\s+banner" is not a valid name/,
    );
  });

  it('index --json gives the same figures as data', () => {
    const run = wsctx(['index', ...WS, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout);
    assert.equal(summary.entities, 66);
    assert.equal(summary.bySourceKind.repo_overview, 3);
    assert.equal(summary.bySourceKind.epic_doc, 7);
    assert.deepEqual(summary.unresolved, [
      {
        source: 'component:default/order-export',
        type: 'dependsOn',
        target: 'resource:default/legacy-fax-gateway',
        declaredAt: 'storefront/catalog/legacy-entities.yaml:18',
      },
    ]);
    assert.equal(summary.folders[0].name, 'fernhill');
  });

  it('expand walks the graph and --json returns the tool output', () => {
    const text = wsctx([
      'expand',
      'component:default/billing-worker',
      ...WS,
      '--direction',
      'out',
      '--edge-types',
      'dependsOn',
    ]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^# component:default\/billing-worker \(Billing worker\)/);
    // One row per edge: hop, from, relation, to; where the declaration does not fit $COLUMNS
    // (default 100) beside them, it goes whole on the line beneath: nothing is cut.
    assert.match(text.stdout, /\n {2}hop {2}from {22}relation {3}to\n/);
    assert.match(
      text.stdout,
      /\n {2}1 {4}component:billing-worker {2}dependsOn {2}resource:invoices-db\n {7}declared at payments-platform\/catalog-info\.yaml:79\n/,
    );
    const wide = wsctx(['expand', 'billing-worker', ...WS, '--depth', '2']);
    // Each relation once (both halves are stored), out and in by the relation's meaning.
    assert.match(wide.stdout, /^Walk: depth 2, direction both; 45 of 45 edges\.$/m);
    assert.deepEqual(
      wide.stdout.split('\n').filter((l) => l.length > 100),
      [],
    );
    // Too narrow for the declarations beside the refs: each beneath its edge.
    const beneath = wsctx(['expand', 'billing-worker', ...WS], { env: { COLUMNS: '70' } });
    assert.deepEqual(
      beneath.stdout.split('\n').filter((l) => l.length > 70),
      [],
    );
    assert.match(
      beneath.stdout,
      /\n {2}1 {4}component:billing-worker {2}dependsOn {4}resource:invoices-db\n {7}declared at payments-platform\/catalog-info\.yaml:79\n/,
    );
    // Too narrow for the refs' table: each edge on its own lines, every ref whole.
    const narrow = wsctx(['expand', 'billing-worker', ...WS], { env: { COLUMNS: '60' } });
    assert.deepEqual(
      narrow.stdout.split('\n').filter((l) => l.length > 60),
      [],
    );
    assert.match(
      narrow.stdout,
      /\n {2}1 {2}component:billing-worker dependsOn resource:invoices-db\n {5}declared at payments-platform\/catalog-info\.yaml:79\n/,
    );
    // Nothing in the example depends on billing-worker: `in` lists none of what it depends on.
    const dependents = JSON.parse(
      wsctx(['expand', 'billing-worker', ...WS, '--depth', '2', '--direction', 'in', '--json']).stdout,
    );
    assert.equal(dependents.entity.ref, 'component:default/billing-worker');
    assert.deepEqual(dependents.edges, []);
    const json = JSON.parse(
      wsctx(['expand', 'resource:invoices-db', ...WS, '--depth', '2', '--direction', 'in', '--json']).stdout,
    );
    assert.deepEqual(
      json.edges.map(
        (e: { depth: number; source: string; type: string; target: string }) =>
          `${e.depth} ${e.source} ${e.type} ${e.target}`,
      ),
      [
        '1 resource:default/invoices-db dependencyOf component:default/billing-worker',
        '1 resource:default/invoices-db dependencyOf component:default/invoice-api',
      ],
    );
  });

  it('exits 1 with a message on stderr for bad input', () => {
    const deep = wsctx(['expand', 'billing-worker', ...WS, '--depth', '4']);
    assert.equal(deep.code, 1);
    assert.equal(deep.stdout, '');
    // In the command line's words: the flag, not the tool's argument name; one line.
    assert.match(
      deep.stderr,
      /^wsctx: --depth: must be a whole number from 1 to 3 \(the default is 1\); deeper walks are refused[^\n]*\n$/,
    );
    const unknown = wsctx(['expand', 'component:billing-wroker', ...WS]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /Did you mean 'component:default\/billing-worker'/);
    const usage = wsctx(['frobnicate', ...WS]);
    assert.equal(usage.code, 1);
    assert.equal(usage.stderr, 'wsctx: unknown command "frobnicate" (wsctx --help lists the commands)\n');
    const badFlag = wsctx(['expand', 'billing-worker', '--depth', 'two', ...WS]);
    assert.equal(badFlag.code, 1);
    assert.equal(badFlag.stderr, 'wsctx: --depth must be a whole number (got "two")\n');
    // A flag of another command is refused by name, not ignored.
    const otherFlag = wsctx(['index', '--depth', '2', ...WS]);
    assert.equal(otherFlag.code, 1);
    assert.equal(
      otherFlag.stderr,
      'wsctx: --depth is not a flag of wsctx index (wsctx index --help lists its flags)\n',
    );
    const noDir = wsctx(['index', '--workspace', '/nonexistent/dir']);
    assert.equal(noDir.code, 1);
    assert.match(noDir.stderr, /--workspace \/nonexistent\/dir: not a directory/);
  });

  it('graph exports every entity and edge as JSON and as Graphviz DOT', () => {
    const json = JSON.parse(wsctx(['graph', ...WS, '--json']).stdout);
    assert.deepEqual(JSON.parse(wsctx(['graph', ...WS, '--format', 'json']).stdout).edges, json.edges);
    assert.equal(json.entities.length, 66);
    // Both halves of every relation, as Backstage stores them.
    assert.equal(json.edges.length, 300);
    assert.deepEqual(
      json.edges
        .filter((e: { resolved: boolean }) => !e.resolved)
        .map(
          (e: { source: string; type: string; target: string; declaredAt: string }) =>
            `${e.source} ${e.type} ${e.target} ${e.declaredAt}`,
        ),
      [
        'component:default/order-export dependsOn resource:default/legacy-fax-gateway storefront/catalog/legacy-entities.yaml:18',
        'resource:default/legacy-fax-gateway dependencyOf component:default/order-export storefront/catalog/legacy-entities.yaml:18',
      ],
    );
    const dot = wsctx(['graph', ...WS, '--format', 'dot']);
    assert.equal(dot.code, 0);
    assert.match(dot.stdout, /^digraph catalog \{/);
    assert.match(
      dot.stdout,
      /"component:default\/billing-worker" -> "resource:default\/invoices-db" \[label="dependsOn"\];/,
    );
    assert.match(dot.stdout, /"resource:default\/legacy-fax-gateway" \[style=dashed, color=grey, fontcolor=grey\];/);
    // One arrow per pair in the drawing: the declared half.
    assert.doesNotMatch(dot.stdout, /label="dependencyOf"/);
    assert.match(dot.stdout, /\}\n$/);
  });

  it('ask prints ranked passages with their source, link and why[], and --json the tool output', () => {
    const run = wsctx(['ask', 'how do I roll back billing-worker?', ...WS, '--limit', '3', '--why']);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.split('\n');
    // Rank, score and the whole heading path; then the whole path:lines, kind and id; the file: link.
    assert.match(lines[0], /^1\. 1\.\d{3} {2}Deploy and rollback › Rolling back$/);
    assert.match(
      lines[1],
      /^ {5}payments-platform\/services\/billing-worker\/docs\/runbooks\/deploy\.md:\d+-\d+ · catalog_doc$/,
    );
    assert.match(lines[2], /^ {5}\[[0-9a-f]{8}\] @ [0-9a-f]{12}$/);
    assert.match(
      lines[3],
      /^ {5}file:\/\/\/\S+\/payments-platform\/services\/billing-worker\/docs\/runbooks\/deploy\.md#L\d+-L\d+$/,
    );
    // --why: one row per term, the detail wrapped under its own column, never past 100 columns.
    assert.match(
      run.stdout,
      /\n {5}words {8}1\.00 {2}0\.811 {2}0\.811 {2}2 of 2 terms; matched roll back 0\.84 \(heading\+title\+body\),\n {38}billing-worker 0\.72 \(body\+context\)\n/,
    );
    assert.match(
      run.stdout,
      /\n {5}namedEntity {2}0\.15 {2}1\.000 {2}0\.150 {2}belongs to component:default\/billing-worker, named as "billing\n {38}worker"\n/,
    );
    assert.match(run.stdout, /contract \d{4}-\d{2}-\d{2}\.\d+ · \d+ candidates · embeddings off · indexedAt /);
    assert.deepEqual(
      lines.filter((l) => l.length > 100 && !l.trimStart().startsWith('file:')),
      [],
    );
    // Without --why: why[] on one line, an excerpt around the matched words, 100 columns at most.
    const plain = wsctx(['ask', 'how do I roll back billing-worker?', ...WS, '--limit', '3']);
    assert.match(plain.stdout, /\n {5}why: words 0\.811 \+ title 0\.148 \+ namedEntity 0\.150 \+ [^\n]*= 1\.\d{3}\n/);
    assert.match(plain.stdout, /--why for every term\n$/);
    assert.doesNotMatch(plain.stdout, /2 of 2 terms; matched/);
    const firstExcerpt = /\n {5}"([^\n]*)"\n/.exec(plain.stdout)![1];
    assert.match(firstExcerpt, /roll/i);
    assert.deepEqual(
      plain.stdout.split('\n').filter((l) => l.length > 100 && !l.trimStart().startsWith('file:')),
      [],
    );
    // Narrow: the heading and the path wrap or take their own line; nothing is cut.
    const narrow = wsctx(['ask', 'how do I roll back billing-worker?', ...WS, '--limit', '3'], {
      env: { COLUMNS: '64' },
    });
    assert.match(
      narrow.stdout,
      /^1\. 1\.\d{3} {2}Deploy and rollback › Rolling back\n {5}payments-platform\/services\/billing-worker\/docs\/runbooks\/deploy\.md:\d+-\d+\n {5}catalog_doc · \[/,
    );
    assert.deepEqual(
      narrow.stdout.split('\n').filter((l) => l.length > 64 && !/^ {5}(file:|\S+:\d+-\d+$)/.test(l)),
      [],
    );
    const json = JSON.parse(
      wsctx(['ask', 'dunning schedule', ...WS, '--json', '--limit', '2', '--source-kinds', 'catalog_doc']).stdout,
    );
    assert.equal(json.passages.length, 2);
    assert.ok(json.passages.every((p: { sourceKind: string }) => p.sourceKind === 'catalog_doc'));
    const none = wsctx(['ask', ...WS]);
    assert.equal(none.code, 1);
    assert.equal(none.stderr, 'wsctx: ask takes a question, e.g. wsctx ask "who owns billing-worker?"\n');
    const empty = wsctx(['ask', '  ', ...WS]);
    assert.equal(empty.code, 1);
    assert.equal(
      empty.stderr,
      'wsctx: ask takes a question (got an empty one), e.g. wsctx ask "who owns billing-worker?"\n',
    );
  });

  it('ask places each passage in the catalog: its entity, owner and nearest neighbours on one line', () => {
    const run = wsctx(['ask', 'who owns billing-worker?', ...WS, '--limit', '5']);
    assert.equal(run.code, 0, run.stderr);
    // The passages about billing-worker do not say who owns it; the lines under each one do,
    // wrapped between the relations (a name is never cut) within 100 columns.
    const places = run.stdout.split('\n').filter((l) => l.startsWith('     component:billing-worker'));
    assert.ok(places.length >= 3, run.stdout);
    const place =
      '     component:billing-worker · owner payments-team · partOf billing\n     dependsOn fernhill-money, invoices-db, payments-queue\n     consumesApi ledger-api, payments-gateway-api\n';
    assert.equal(run.stdout.split(place).length - 1, places.length, run.stdout);
    assert.deepEqual(
      run.stdout.split('\n').filter((l) => l.length > 100 && !l.trimStart().startsWith('file:')),
      [],
    );
    // Wide enough, the whole neighbourhood shows; a passage of several entities names each owner.
    const wide = wsctx(['ask', 'who owns billing-worker?', ...WS, '--limit', '10'], { env: { COLUMNS: '400' } });
    assert.match(
      wide.stdout,
      /\n {5}component:billing-worker · owner payments-team · partOf billing · dependsOn fernhill-money, invoices-db, payments-queue · consumesApi ledger-api, payments-gateway-api\n/,
    );
    // The repository overview belongs to the 12 entities of the repository's root catalog file:
    // five are listed, the one the question names first, and the rest counted.
    assert.match(
      wide.stdout,
      /\n {5}component:billing-worker \(owner payments-team\), domain:money \(owner engineering\), system:billing \(owner payments-team\), system:payments \(owner payments-team\), system:ledger \(owner ledger-team\), \+7 more entities\n/,
    );
    const group = wsctx(['ask', 'what does the payments team own?', ...WS, '--limit', '3'], {
      env: { COLUMNS: '400' },
    });
    assert.match(
      group.stdout,
      /\n {5}group:payments-team · childOf engineering · ownerOf [\w-]+, [\w-]+, [\w-]+ \+\d+ · hasMember jonas\.weber, maria\.chen, rafael\.costa · \+\d+ more edges \(wsctx expand group:payments-team\)\n/,
    );
  });

  it('ask marks the expired page and each side of the refund-window conflict, with the other page and both wordings', () => {
    const refund = wsctx(['ask', 'what is the refund window?', ...WS, '--limit', '4']);
    assert.equal(refund.code, 0, refund.stderr);
    const heads = refund.stdout.split('\n').filter((l) => /^\d+\. /.test(l));
    assert.match(heads[0], /^1\. [\d.]+ +\[conflict\] Refund policy › Refund window$/);
    assert.match(heads[1], /^2\. [\d.]+ +\[conflict\] Issuing refunds › Refund window$/);
    assert.doesNotMatch(heads[2], /\[conflict\]/);
    // Words rejoined across the wrapped lines: the marker names the other page and quotes both.
    const text = refund.stdout.replace(/\n {5}/g, ' ');
    assert.ok(
      text.includes(
        'CONFLICT: "Issuing refunds" [9cce21de] › Refund window (.context/guides/issuing-refunds.md:23) says "A captured charge can be refunded up to 30 days after capture, in full or in part, any number of times until the captured amount is used up.", where this says "Merchants can refund a captured charge within 14 days of capture, in full or in part." (14 days vs 30 days).',
      ),
      refund.stdout,
    );
    assert.ok(
      text.includes('CONFLICT: "Refund policy" [0135930a] › Refund window (.context/reference/refund-policy.md:21)'),
      refund.stdout,
    );
    assert.deepEqual(
      refund.stdout.split('\n').filter((l) => l.length > 100 && !l.trimStart().startsWith('file:')),
      [],
    );

    const pci = wsctx(['ask', 'PCI DSS 4.0 transition checklist', ...WS, '--limit', '2', '--json']);
    const out = JSON.parse(pci.stdout) as { passages: { title: string; expired?: string; conflicts?: unknown[] }[] };
    assert.deepEqual(
      out.passages.map((p) => [p.title, p.expired]),
      [
        ['PCI DSS 4.0 transition checklist', '2025-06-30'],
        ['PCI DSS 4.0 transition checklist', '2025-06-30'],
      ],
    );
    assert.match(
      wsctx(['ask', 'PCI DSS 4.0 transition checklist', ...WS, '--limit', '1']).stdout,
      /\n {5}EXPIRED on 2025-06-30: this library page is past its expires date/,
    );
  });

  it('prints usage with --help and exits 0', () => {
    const run = wsctx(['--help']);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^wsctx: the workspace's own knowledge/);
    assert.match(run.stdout, /\n {7}wsctx <command> --help {5}that command's flags, defaults and examples\n/);
  });
});
