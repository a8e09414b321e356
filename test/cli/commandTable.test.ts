/**
 * The command table (server/src/cli/commandTable.ts) against the help written from
 * startup/commands.ts: a command `wsctx --help` lists but the table lacks would be refused as
 * unknown, and `--store`'s help must name the commands a store serves, no more and no fewer (the
 * table decides which commands refuse `--store`).
 */
import assert from 'node:assert/strict';
import { COMMANDS as TABLE } from '../../server/src/cli/commandTable';
import { COMMANDS as HELP, COMMON_FLAGS } from '../../server/src/startup/commands';

describe('wsctx command table', () => {
  it('has one entry for every command the help lists, in its order', () => {
    assert.deepEqual(
      [...TABLE.keys()],
      HELP.map((c) => c.name),
    );
  });

  it("--store's help names exactly the commands whose entry a store serves", () => {
    const text = COMMON_FLAGS.find((f) => f.name === 'store')!.text;
    const named = HELP.map((c) => c.name).filter((name) => new RegExp(`(^|[^\\w-])${name}([^\\w-]|$)`).test(text));
    const served = [...TABLE].filter(([, entry]) => entry.store).map(([name]) => name);
    assert.deepEqual(named, served);
    assert.deepEqual(served, [
      'index',
      'ask',
      'expand',
      'toc',
      'section',
      'search',
      'context',
      'page',
      'file',
      'mcp',
      'serve',
    ]);
  });
});
