/**
 * The snapshot's relation rows: the relations the example catalog derives read back equal, in
 * order, the two halves of a pair sharing one origin; a table that does not fit is refused.
 */
import assert from 'node:assert/strict';
import { Engine } from '../../../../server/src/engine/engine';
import { decodeRelations, encodeRelations } from '../../../../server/src/engine/persistence/relationTable';
import { copyExampleWorkspace, removeTempDirs } from '../../../helpers/tempWorkspace';

describe('snapshot relation table', () => {
  after(removeTempDirs);

  it('reads back the derived relations equal and in order, a pair sharing its origin', async () => {
    const engine = new Engine({ folders: [{ name: 'fernhill', absPath: copyExampleWorkspace() }] });
    const { relations } = await engine.waitForIndex();
    engine.dispose();
    assert.ok(relations.length > 50, `${relations.length} relations`);
    const table = JSON.parse(JSON.stringify(encodeRelations(relations)));
    const read = decodeRelations(table);
    assert.deepEqual(read, relations);
    assert.ok(relations.some((r) => !r.resolved) && relations.some((r) => r.resolved));
    assert.equal(read[0].origin, read[1].origin, 'forward and reverse halves share one origin');
  });

  it('refuses rows that do not fit the table', () => {
    const table = encodeRelations([
      {
        source: 'component:default/a',
        type: 'ownedBy',
        target: 'group:default/t',
        sourceRef: 'component:default/a',
        targetRef: 'group:default/t',
        resolved: false,
        origin: { path: 'a.yaml', line: 3, field: 'spec.owner' },
      },
    ]);
    assert.throws(
      () => decodeRelations({ strings: table.strings, rows: table.rows.slice(0, 8) }),
      /^Error: snapshot relations: the table is not whole rows$/,
    );
    assert.throws(
      () => decodeRelations({ strings: table.strings.slice(0, 2), rows: table.rows }),
      /^Error: snapshot relations: string \d+ is not in the table of 2$/,
    );
    assert.throws(() => decodeRelations(undefined as never), /snapshot relations/);
  });
});
