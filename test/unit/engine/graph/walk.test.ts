import assert from 'node:assert/strict';
import { ComponentGraph } from '../../../../server/src/engine/graph/componentGraph';
import { directionOf, walkGraph, type WalkDirection } from '../../../../server/src/engine/graph/walk';
import type { CatalogEntity, Relation, RelationType } from '../../../../server/src/engine/model';

/**
 * The walk's direction is the relation's meaning, whichever half of a pair a graph holds: a store
 * or a catalog that kept only `A dependsOn B` (or only `B dependencyOf A`) walks the same as one
 * that kept both.
 */
const entity = (ref: string): CatalogEntity => ({ key: ref, ref, kind: ref.split(':')[0] }) as unknown as CatalogEntity;
const relation = (source: string, type: RelationType, target: string): Relation => ({
  source,
  type,
  target,
  sourceRef: source,
  targetRef: target,
  resolved: true,
  origin: { path: 'catalog-info.yaml', line: 1, field: 'spec.dependsOn' },
});

const ENTITIES = ['component:default/web', 'component:default/api', 'resource:default/db', 'group:default/team'].map(
  entity,
);
const walk = (relations: Relation[], start: string, direction: WalkDirection, depth = 2) =>
  walkGraph(new ComponentGraph(ENTITIES, relations), start, { depth, direction }).steps.map(
    (s) => `${s.depth} ${s.edge.source} ${s.edge.type} ${s.edge.target} ${s.via}`,
  );

describe('walkGraph direction', () => {
  const forwardOnly = [
    relation('component:default/web', 'dependsOn', 'component:default/api'),
    relation('component:default/api', 'dependsOn', 'resource:default/db'),
    relation('resource:default/db', 'ownedBy', 'group:default/team'),
  ];
  const inverseOnly = [
    relation('component:default/api', 'dependencyOf', 'component:default/web'),
    relation('resource:default/db', 'dependencyOf', 'component:default/api'),
    relation('group:default/team', 'ownerOf', 'resource:default/db'),
  ];

  for (const [name, relations] of [
    ['forward halves only', forwardOnly],
    ['inverse halves only', inverseOnly],
    ['both halves', [...forwardOnly, ...inverseOnly]],
  ] as const) {
    it(`${name}: out is what the entity depends on, in what depends on it, each relation once`, () => {
      assert.deepEqual(walk([...relations], 'component:default/api', 'out'), [
        '1 component:default/api dependsOn resource:default/db out',
        '2 resource:default/db ownedBy group:default/team out',
      ]);
      assert.deepEqual(walk([...relations], 'component:default/api', 'in'), [
        '1 component:default/api dependencyOf component:default/web in',
      ]);
      assert.deepEqual(walk([...relations], 'resource:default/db', 'in'), [
        '1 resource:default/db dependencyOf component:default/api in',
        '2 component:default/api dependencyOf component:default/web in',
      ]);
      assert.deepEqual(walk([...relations], 'resource:default/db', 'both', 1), [
        '1 resource:default/db dependencyOf component:default/api in',
        '1 resource:default/db ownedBy group:default/team out',
      ]);
    });
  }

  it('names the direction a set of edge types lies on', () => {
    assert.equal(directionOf(['dependsOn', 'consumesApi']), 'out');
    assert.equal(directionOf(['hasPart']), 'in');
    assert.equal(directionOf(['ownerOf', 'memberOf']), 'both');
  });
});
