/**
 * Every CLI run is a new session, so the pinned documents (which head a session's first answer)
 * headed every `section` and `search`. The CLI prints them with `toc` only; `section` prints the
 * section asked for first, and both end with one line naming the pinned documents.
 */
import assert from 'node:assert/strict';
import { wsctx } from '../helpers/cli';
import { EXAMPLE_WORKSPACE } from '../helpers/tempWorkspace';

const WS = ['--workspace', EXAMPLE_WORKSPACE];
const PINNED_BLOCK = 'Pinned documents (they apply to every task; each session gets them once, whole):';
const CLOSING = '(1 pinned document applies to every task: "Finding a merchant account id"; wsctx toc prints it.)';

describe('wsctx prints the pinned documents with toc only (built CLI)', () => {
  it('toc starts with them; section starts with the section; search does not repeat them', () => {
    assert.ok(wsctx(['toc', ...WS]).stdout.startsWith(`${PINNED_BLOCK}\n\n=== Finding a merchant account id  [doc `));

    const search = wsctx(['search', 'writing a migration for billing-worker', ...WS]);
    assert.equal(search.code, 0, search.stderr);
    assert.ok(!search.stdout.includes(PINNED_BLOCK));
    assert.ok(search.stdout.trimEnd().endsWith(CLOSING), search.stdout.slice(-200));

    const found = JSON.parse(wsctx(['search', 'writing a migration for billing-worker', ...WS, '--json']).stdout) as {
      documents: { sections: { id: string; heading: string }[] }[];
      pinned?: unknown[];
    };
    assert.equal(found.pinned?.length, 1); // --json keeps the tool's own answer
    const { id, heading } = found.documents[0].sections[0];
    const section = wsctx(['section', id, ...WS]);
    assert.equal(section.code, 0, section.stderr);
    assert.ok(section.stdout.startsWith(`# ${heading}  [id: ${id}]\n`), section.stdout.slice(0, 200));
    assert.ok(section.stdout.trimEnd().endsWith(CLOSING));
  });
});
