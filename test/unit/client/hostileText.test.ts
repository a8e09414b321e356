/**
 * The client's Markdown and commands against a hostile workspace: every field the chat's /why and
 * /expand show is fed a string that tries to close a code span or open a `command:` link, and the
 * two commands trusted Markdown may run refuse anything but an entity ref and workspace paths.
 */
import * as assert from 'node:assert/strict';
import type { SearchResult } from '../../../shared/protocol';
import { markdownCode, markdownLinkTarget, markdownText } from '../../../shared/markdown';
import { renderExpand, whyBlocks, whyHeader } from '../../../client/src/chatText';
import { checkEntityDocsArgs, checkExpandArgs, isWorkspaceRelativePath } from '../../../client/src/commandArgs';
import type { ExpandView } from '../../../client/src/pickItems';
import { linkTargets } from '../../helpers/markdownLinks';

const CLICK =
  '`` [x](command:workspaceContext.showEntityDocs?%5B%5D) <command:workspaceContext.showEntityDocs> [r]: command:workspaceContext.showEntityDocs\n\n[r] `';

describe('client: hostile workspace text and command arguments', () => {
  it('the shared helpers keep any string text, in a code span or as text', () => {
    for (const s of [CLICK, '`', '``a``', ' ` ', '', 'a\n\n[x](command:y)', '\\[x](command:y)']) {
      assert.deepEqual(linkTargets(`a ${markdownText(s)} b`), [], s);
      assert.deepEqual(linkTargets(`a ${markdownCode(s)} b`), [], s);
      assert.deepEqual(
        linkTargets(`[label](${markdownLinkTarget(`file:///ws/${s}`)}) ${markdownText(s)}`).length,
        1,
        s,
      );
    }
  });

  it('workspace text inside a link label of ours, or beside it, renders no link, command or remote image in marked or markdown-it', () => {
    // marked undoes `\[` and `\]` inside a link's label and reads the label again: a folder named
    // `svc](command:...)` made the hover's "Declared in" link hold a command link of its own.
    const hostile = [
      'svc](command:workspaceContext.showEntityDocs?%5B%5D)',
      '[x](command:workspaceContext.showEntityDocs?%5B%5D)',
      '\\[x\\](command:workspaceContext.showEntityDocs)',
      '![pixel](https://tracker.example/p.png)',
      '[![pixel](https://tracker.example/p.png)](command:x)',
      '<https://e.example>',
      'see https://e.example/x and www.e.example and ftp://e.example',
      'mail ops@e.example or mailto:ops@e.example',
      'evil.com and //e.example/x and HTTPS://E.EXAMPLE and Www.E.example',
      'file:///etc/passwd vscode://x/y command:workspaceContext.showEntityDocs javascript:alert(1)',
      '<a href="command:x">x</a> <img src="https://tracker.example/p.png">',
      '&#91;x&#93;(command:x) &lbrack;x&rbrack;(command:x)',
      '[r]: command:workspaceContext.showEntityDocs\n\n[r]',
      `${CLICK}/catalog-info.yaml`,
    ];
    for (const s of hostile) {
      const label = `Declared in [${markdownText(`${s}:4`)}](${markdownLinkTarget('file:///ws/svc/catalog-info.yaml')}#L4)`;
      assert.deepEqual(linkTargets(label), ['file:///ws/svc/catalog-info.yaml#L4'], s);
      for (const wrap of [
        (t: string) => `a ${t} b`,
        (t: string) => `### ${t}`,
        (t: string) => `> ${t}`,
        (t: string) => `| ${t} |`,
      ])
        assert.deepEqual(linkTargets(wrap(markdownText(s))), [], `${s} ${wrap('')}`);
      assert.deepEqual(linkTargets(markdownText(s, { multiline: true })), [], `${s} multiline`);
      assert.deepEqual(linkTargets(`a ${markdownCode(s)} b`), [], `${s} code`);
    }
  });

  it('/expand links only to the expand command, for the refs the walk reached', () => {
    const out: ExpandView = {
      entity: { ref: `component:default/a${CLICK}`, title: CLICK, sourceRef: 'x' },
      notice: CLICK,
      depth: 1,
      direction: 'out',
      totalEdges: 1,
      degraded: [CLICK],
      edges: [
        {
          source: `component:default/a${CLICK}`,
          type: `dependsOn${CLICK}`,
          target: 'component:default/b',
          resolved: true,
          depth: 1,
          declaredAt: `${CLICK}:3`,
          field: CLICK,
        } as ExpandView['edges'][number],
      ],
    };
    const targets = linkTargets(renderExpand(out));
    assert.equal(targets.length, 1);
    assert.match(targets[0], /^command:workspaceContext\.expandEntity\?/);
    assert.equal(JSON.parse(decodeURIComponent(targets[0].split('?')[1]))[0].entityRef, 'component:default/b');
    assert.deepEqual(linkTargets(renderExpand({ ...out, entity: undefined })), []);
  });

  it('/why shows questions, notices, labels and details as text', () => {
    const passage = {
      id: '1',
      documentId: '2',
      title: CLICK,
      headingPath: [CLICK],
      label: CLICK,
      sourceKind: 'library',
      path: 'a.md',
      startLine: 1,
      endLine: 2,
      uri: 'file:///ws/a.md#L1-L2',
      score: 1,
      leadingWhy: [],
      why: [{ signal: 'words', weight: 1, raw: 1, contribution: 1, detail: CLICK }],
      preview: CLICK,
    };
    const result = {
      question: CLICK,
      notice: CLICK,
      contractVersion: 'v',
      indexedAt: null,
      degraded: [],
      passages: [passage],
    } as unknown as SearchResult;
    assert.deepEqual(linkTargets(whyHeader(result)), []);
    for (const block of whyBlocks(result)) assert.deepEqual(linkTargets(`${block.heading}\n\n${block.table}`), []);
  });

  it('the trusted commands take an entity ref and workspace paths, never a URI or a path out', () => {
    assert.equal(
      checkExpandArgs({ entityRef: 'component:default/billing-worker', direction: 'in', depth: 2 }).ok,
      true,
    );
    for (const bad of [
      { entityRef: 'file:///etc/passwd', direction: 'out', depth: 1 },
      { entityRef: 'a b', direction: 'out', depth: 1 },
      { entityRef: 'x', direction: 'up', depth: 1 },
      { entityRef: 'x', direction: 'out', depth: 9 },
      null,
      'component:x',
    ]) {
      assert.equal(checkExpandArgs(bad).ok, false, JSON.stringify(bad));
    }
    const good = checkEntityDocsArgs({
      entityRef: 'component:default/x',
      docs: [{ title: 'Runbook', path: 'services/x/docs/runbook.md', sourceKind: 'catalog_doc' }],
    });
    assert.deepEqual(good, {
      ok: true,
      value: {
        entityRef: 'component:default/x',
        docs: [{ title: 'Runbook', path: 'services/x/docs/runbook.md', sourceKind: 'catalog_doc' }],
      },
    });
    for (const path of [
      'file:///etc/passwd',
      '/etc/passwd',
      '../../etc/passwd',
      'a/../../b',
      'C:\\x',
      'vscode-userdata:/x',
      'a//b',
      './a',
      'a\u0000b',
      '',
    ]) {
      assert.equal(isWorkspaceRelativePath(path), false, path);
      assert.equal(
        checkEntityDocsArgs({ entityRef: 'component:default/x', docs: [{ title: 't', path, sourceKind: 'library' }] })
          .ok,
        false,
        path,
      );
    }
    // The old shape, a URI per document, is refused.
    assert.equal(
      checkEntityDocsArgs({
        entityRef: 'component:default/x',
        docs: [{ title: 't', uri: 'file:///etc/passwd', sourceKind: 'library' }],
      }).ok,
      false,
    );
  });
});
