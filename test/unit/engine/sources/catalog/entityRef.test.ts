import assert from 'node:assert/strict';
import * as backstage from '@backstage/catalog-model';
import {
  entityKey,
  parseEntityRef,
  printEntityRef,
  refKey,
  type RefDefaults,
} from '../../../../../server/src/engine/sources/catalog/entityRef';
import {
  defaultKindForField,
  parseFieldRef,
  relationFieldsOf,
} from '../../../../../server/src/engine/sources/catalog/relationFields';

/** Inputs chosen to hit every branch of Backstage's parser, compared against the package itself. */
const STRING_INPUTS = [
  'foo',
  'component:foo',
  'Component:Foo',
  'component:ns/foo',
  'ns/foo',
  'COMPONENT:DEFAULT/FooBar',
  'a:b:c',
  'a/b/c',
  'a/b:c',
  'a:b/c:d',
  'k:ns/name/extra',
  ':foo',
  'foo:',
  '/foo',
  'foo/',
  'k:/n',
  'k:ns/',
  ':',
  '/',
  ':/',
  ' component:foo ',
  'component: foo',
  ' ',
  '',
  'group:Default/Team-A',
  'user:default/jane.doe@example.com',
];

const OBJECT_INPUTS: unknown[] = [
  { name: 'x' },
  { kind: 'Component', name: 'x' },
  { kind: 'Component', namespace: 'NS', name: 'X' },
  { kind: '', name: 'x' },
  { kind: 'c', namespace: '', name: 'x' },
  { kind: 'c', name: '' },
  { kind: 'c' },
  null,
  undefined,
  0,
  false,
];

const CONTEXTS: (RefDefaults | undefined)[] = [
  undefined,
  { defaultKind: 'Group' },
  { defaultKind: 'Group', defaultNamespace: 'team' },
  { defaultNamespace: '' },
  { defaultKind: '' },
];

function backstageParse(input: unknown, context?: RefDefaults) {
  try {
    return { ok: true as const, value: backstage.parseEntityRef(input as string, context) };
  } catch (e) {
    return { ok: false as const, error: (e as Error).message };
  }
}

describe('catalog/entityRef', () => {
  describe('differential against @backstage/catalog-model', () => {
    for (const context of CONTEXTS) {
      for (const input of [...STRING_INPUTS, ...OBJECT_INPUTS]) {
        it(`parses ${JSON.stringify(input) ?? 'undefined'} with ${JSON.stringify(context) ?? 'no context'} as Backstage does`, () => {
          const expected = backstageParse(input, context);
          const actual = parseEntityRef(input, context);
          if (!expected.ok) {
            assert.deepEqual(actual, { ok: false, error: expected.error });
            return;
          }
          assert.deepEqual(actual, { ok: true, value: expected.value });
          assert.ok(actual.ok);
          assert.equal(entityKey(actual.value), backstage.stringifyEntityRef(expected.value));
          assert.equal(printEntityRef(actual.value).toLowerCase(), backstage.stringifyEntityRef(expected.value));
        });
      }
    }
  });

  describe('exact values', () => {
    it('splits only at the first colon and first slash, a slash first making the colon part of the name', () => {
      assert.deepEqual(parseEntityRef('a:b/c:d'), { ok: true, value: { kind: 'a', namespace: 'b', name: 'c:d' } });
      assert.deepEqual(parseEntityRef('a/b:c', { defaultKind: 'Group' }), {
        ok: true,
        value: { kind: 'Group', namespace: 'a', name: 'b:c' },
      });
      assert.deepEqual(parseEntityRef('k:ns/name/extra'), {
        ok: true,
        value: { kind: 'k', namespace: 'ns', name: 'name/extra' },
      });
    });

    it('keeps whitespace and case as written', () => {
      assert.deepEqual(parseEntityRef(' component:foo '), {
        ok: true,
        value: { kind: ' component', namespace: 'default', name: 'foo ' },
      });
      assert.deepEqual(parseEntityRef('COMPONENT:DEFAULT/FooBar'), {
        ok: true,
        value: { kind: 'COMPONENT', namespace: 'DEFAULT', name: 'FooBar' },
      });
    });

    it("reports a missing kind, an empty part and an empty ref with Backstage's messages", () => {
      assert.deepEqual(parseEntityRef('foo'), {
        ok: false,
        error: 'Entity reference "foo" had missing or empty kind (e.g. did not start with "component:" or similar)',
      });
      assert.deepEqual(parseEntityRef('k:ns/'), {
        ok: false,
        error: 'Entity reference "k:ns/" was not on the form [<kind>:][<namespace>/]<name>',
      });
      assert.deepEqual(parseEntityRef(''), { ok: false, error: 'Entity reference must not be empty' });
    });

    it('rejects compound refs whose parts are not strings (Backstage would fail later, when printing)', () => {
      assert.deepEqual(parseEntityRef({ kind: 'c', name: 5 }), {
        ok: false,
        error: 'Entity reference {"kind":"c","name":5} had a name that is not a string',
      });
    });

    it('prints kind and namespace lower-cased and keeps the name; the key lower-cases everything', () => {
      const ref = { kind: 'Component', namespace: 'Default', name: 'FooBar' };
      assert.equal(printEntityRef(ref), 'component:default/FooBar');
      assert.equal(entityKey(ref), 'component:default/foobar');
      assert.equal(entityKey(ref), backstage.stringifyEntityRef(ref));
      assert.equal(printEntityRef({ kind: 'API', name: 'Petstore' }), 'api:default/Petstore');
      assert.equal(refKey('Group:Team-A'), 'group:default/team-a');
      assert.equal(refKey('Team-A', { defaultKind: 'Group', defaultNamespace: 'ops' }), 'group:ops/team-a');
      assert.equal(refKey('team-a'), null);
    });
  });

  describe('kind and namespace defaults by field', () => {
    const table: [kind: string, key: string, defaultKind: string | undefined][] = [
      ['Component', 'owner', 'Group'],
      ['Component', 'system', 'System'],
      ['Component', 'subcomponentOf', 'Component'],
      ['Component', 'providesApis', 'API'],
      ['Component', 'consumesApis', 'API'],
      ['Component', 'dependsOn', undefined],
      ['Component', 'dependencyOf', undefined],
      ['API', 'owner', 'Group'],
      ['API', 'system', 'System'],
      ['Resource', 'owner', 'Group'],
      ['Resource', 'dependsOn', undefined],
      ['Resource', 'dependencyOf', undefined],
      ['Resource', 'system', 'System'],
      ['System', 'owner', 'Group'],
      ['System', 'domain', 'Domain'],
      ['Domain', 'owner', 'Group'],
      ['Domain', 'subdomainOf', 'Domain'],
      ['Group', 'parent', 'Group'],
      ['Group', 'children', 'Group'],
      ['Group', 'members', 'User'],
      ['User', 'memberOf', 'Group'],
      ['Template', 'owner', 'Group'],
    ];
    for (const [kind, key, defaultKind] of table) {
      it(`${kind}.spec.${key} defaults to ${defaultKind ?? 'no kind'}`, () => {
        assert.deepEqual(defaultKindForField(kind, key), { found: true, defaultKind });
      });
    }

    it('knows no ref fields for Location, unknown kinds or kinds in the wrong case', () => {
      assert.deepEqual(defaultKindForField('Location', 'target'), { found: false });
      assert.deepEqual(defaultKindForField('Widget', 'owner'), { found: false });
      assert.deepEqual(defaultKindForField('component', 'owner'), { found: false });
      assert.deepEqual(relationFieldsOf('toString'), []);
    });

    it("inherits the referring entity's namespace, as Backstage does for every built-in field", () => {
      const owner = relationFieldsOf('Component').find((f) => f.key === 'owner')!;
      const ours = parseFieldRef('team-a', owner, 'payments');
      assert.deepEqual(ours, { ok: true, value: { kind: 'Group', namespace: 'payments', name: 'team-a' } });
      assert.deepEqual(
        ours.ok && ours.value,
        backstage.parseEntityRef('team-a', { defaultKind: 'Group', defaultNamespace: 'payments' }),
      );
      assert.deepEqual(parseFieldRef('user:default/jane', owner, 'payments'), {
        ok: true,
        value: { kind: 'user', namespace: 'default', name: 'jane' },
      });
    });

    it('makes a kindless dependsOn ref an error, as Backstage does, with a hint', () => {
      const dependsOn = relationFieldsOf('Component').find((f) => f.key === 'dependsOn')!;
      assert.throws(() => backstage.parseEntityRef('db', { defaultNamespace: 'default' }), /had missing or empty kind/);
      assert.deepEqual(parseFieldRef('db', dependsOn, 'default'), {
        ok: false,
        error:
          'Entity reference "db" had missing or empty kind (e.g. did not start with "component:" or similar); spec.dependsOn has no default kind, write e.g. "component:db" or "resource:db"',
      });
      assert.deepEqual(parseFieldRef('resource:db', dependsOn, 'ops'), {
        ok: true,
        value: { kind: 'resource', namespace: 'ops', name: 'db' },
      });
    });
  });
});
