import assert from 'node:assert/strict';
import * as backstage from '@backstage/catalog-model';
import { mcpServerApiEntityValidator } from '@backstage/catalog-model/alpha';
import * as formats from '../../../../../server/src/engine/sources/catalog/fieldFormats';
import { validateEntity } from '../../../../../server/src/engine/sources/catalog/validateEntity';

// Backstage's pipeline as catalog-backend runs it on an entity read from a file: envelope schema,
// the default policies in CatalogBuilder's order, then the built-in kind processors' validators.
const envelope = backstage.entityEnvelopeSchemaValidator();
const policies = backstage.EntityPolicies.allOf([
  new backstage.SchemaValidEntityPolicy(),
  new backstage.DefaultNamespaceEntityPolicy(),
  new backstage.NoForeignRootFieldsEntityPolicy(),
  new backstage.FieldFormatEntityPolicy(),
]);
const kindValidators = [
  backstage.apiEntityV1alpha1Validator,
  mcpServerApiEntityValidator,
  backstage.componentEntityV1alpha1Validator,
  backstage.resourceEntityV1alpha1Validator,
  backstage.groupEntityV1alpha1Validator,
  backstage.locationEntityV1alpha1Validator,
  backstage.userEntityV1alpha1Validator,
  backstage.systemEntityV1alpha1Validator,
  backstage.domainEntityV1alpha1Validator,
];

type Verdict = 'accepted' | 'rejected' | 'unrecognized';

async function backstageVerdict(data: unknown): Promise<Verdict> {
  try {
    const copy = structuredClone(data) as backstage.Entity;
    envelope(copy);
    const entity = (await policies.enforce(copy)) as backstage.Entity;
    let threw = false;
    for (const validator of kindValidators) {
      try {
        if (await validator.check(entity)) return 'accepted';
      } catch {
        threw = true;
      }
    }
    return threw ? 'rejected' : 'unrecognized';
  } catch {
    return 'rejected';
  }
}

const component = () => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'billing-worker', description: 'Bills', tags: ['java'], labels: {}, annotations: {} },
  spec: { type: 'service', lifecycle: 'production', owner: 'team-a' },
});

type Mutation = (e: any) => void;
/** [description, mutation, field of our first error (or null when valid)] */
const TABLE: [string, Mutation, string | null][] = [
  ['a valid component', () => {}, null],
  ['apiVersion v1beta1', (e) => (e.apiVersion = 'backstage.io/v1beta1'), null],
  ['apiVersion of another group for a built-in kind', (e) => (e.apiVersion = 'acme.com/v1'), 'apiVersion'],
  ['apiVersion with two slashes', (e) => (e.apiVersion = 'a/b/c'), 'apiVersion'],
  ['apiVersion missing', (e) => delete e.apiVersion, 'apiVersion'],
  ['apiVersion a number', (e) => (e.apiVersion = 1), 'apiVersion'],
  ['kind missing', (e) => delete e.kind, 'kind'],
  ['kind with a dash (custom kind)', (e) => (e.kind = 'my-kind'), 'kind'],
  ['metadata missing', (e) => delete e.metadata, 'metadata'],
  ['metadata a list', (e) => (e.metadata = []), 'metadata'],
  ['name with a space', (e) => (e.metadata.name = 'Foo Bar'), 'metadata.name'],
  ['name with capitals and dots', (e) => (e.metadata.name = 'Foo.Bar_baz-1'), null],
  ['name of 63 characters', (e) => (e.metadata.name = 'a'.repeat(63)), null],
  ['name of 64 characters', (e) => (e.metadata.name = 'a'.repeat(64)), 'metadata.name'],
  ['name ending with a dash', (e) => (e.metadata.name = 'foo-'), 'metadata.name'],
  ['name a number', (e) => (e.metadata.name = 42), 'metadata.name'],
  ['name empty', (e) => (e.metadata.name = ''), 'metadata.name'],
  ['name missing', (e) => delete e.metadata.name, 'metadata.name'],
  ['namespace valid', (e) => (e.metadata.namespace = 'team-x'), null],
  ['namespace with capitals', (e) => (e.metadata.namespace = 'Team'), 'metadata.namespace'],
  ['namespace empty', (e) => (e.metadata.namespace = ''), 'metadata.namespace'],
  ['namespace null', (e) => (e.metadata.namespace = null), 'metadata.namespace'],
  ['title a number', (e) => (e.metadata.title = 5), 'metadata.title'],
  ['title empty', (e) => (e.metadata.title = ''), 'metadata.title'],
  ['description empty', (e) => (e.metadata.description = ''), null],
  ['description a list', (e) => (e.metadata.description = ['x']), 'metadata.description'],
  ['label with a prefix', (e) => (e.metadata.labels = { 'acme.com/tier': 'gold' }), null],
  ['label value empty', (e) => (e.metadata.labels = { tier: '' }), null],
  ['label key with two slashes', (e) => (e.metadata.labels = { 'a/b/c': 'x' }), 'metadata.labels["a/b/c"]'],
  ['label value with a space', (e) => (e.metadata.labels = { tier: 'very gold' }), 'metadata.labels.tier'],
  ['label value a number', (e) => (e.metadata.labels = { tier: 1 }), 'metadata.labels.tier'],
  ['labels a list', (e) => (e.metadata.labels = ['x']), 'metadata.labels'],
  ['annotation value with spaces', (e) => (e.metadata.annotations = { 'backstage.io/techdocs-ref': 'dir:. ok' }), null],
  [
    'annotation key with a capital prefix',
    (e) => (e.metadata.annotations = { 'Acme.com/x': 'y' }),
    'metadata.annotations["Acme.com/x"]',
  ],
  [
    'annotation value a boolean',
    (e) => (e.metadata.annotations = { 'acme.com/x': true }),
    'metadata.annotations["acme.com/x"]',
  ],
  ['tags with + # and :', (e) => (e.metadata.tags = ['c++', 'c#', 'lang:go']), null],
  ['tag with a capital', (e) => (e.metadata.tags = ['Java']), 'metadata.tags[0]'],
  ['tag empty', (e) => (e.metadata.tags = ['java', '']), 'metadata.tags[1]'],
  ['tags a string', (e) => (e.metadata.tags = 'java'), 'metadata.tags'],
  ['link valid', (e) => (e.metadata.links = [{ url: 'https://x.example/a', title: 'A', icon: 'web' }]), null],
  ['link url not a url', (e) => (e.metadata.links = [{ url: 'not a url' }]), 'metadata.links[0].url'],
  ['link without url', (e) => (e.metadata.links = [{ title: 'A' }]), 'metadata.links[0].url'],
  [
    'link title blank',
    (e) => (e.metadata.links = [{ url: 'https://x.example', title: '  ' }]),
    'metadata.links[0].title',
  ],
  ['unknown root field', (e) => (e.status = {}), 'status'],
  ['relations at the root', (e) => (e.relations = []), 'relations'],
  ['spec missing', (e) => delete e.spec, 'spec'],
  ['spec a string', (e) => (e.spec = 'x'), 'spec'],
  ['spec.owner missing', (e) => delete e.spec.owner, 'spec.owner'],
  ['spec.type missing', (e) => delete e.spec.type, 'spec.type'],
  ['spec.lifecycle empty', (e) => (e.spec.lifecycle = ''), 'spec.lifecycle'],
  ['spec.owner a list', (e) => (e.spec.owner = ['a']), 'spec.owner'],
  ['spec.system a number', (e) => (e.spec.system = 3), 'spec.system'],
  ['spec.dependsOn a string', (e) => (e.spec.dependsOn = 'component:x'), 'spec.dependsOn'],
  ['spec.providesApis with an empty item', (e) => (e.spec.providesApis = ['a', '']), 'spec.providesApis[1]'],
  ['spec.dependencyOf (not in the schema) a number', (e) => (e.spec.dependencyOf = 5), null],
  [
    'API without definition',
    (e) => Object.assign(e, { kind: 'API', spec: { type: 'openapi', lifecycle: 'x', owner: 'o' } }),
    'spec.definition',
  ],
  [
    'API with definition',
    (e) =>
      Object.assign(e, {
        kind: 'API',
        spec: { type: 'openapi', lifecycle: 'x', owner: 'o', definition: 'openapi: 3' },
      }),
    null,
  ],
  [
    'mcp-server API with remotes',
    (e) =>
      Object.assign(e, {
        kind: 'API',
        spec: { type: 'mcp-server', lifecycle: 'x', owner: 'o', remotes: [{ type: 'sse', url: 'https://m.example' }] },
      }),
    null,
  ],
  [
    'mcp-server API with empty remotes',
    (e) => Object.assign(e, { kind: 'API', spec: { type: 'mcp-server', lifecycle: 'x', owner: 'o', remotes: [] } }),
    'spec.remotes',
  ],
  ['Resource without type', (e) => Object.assign(e, { kind: 'Resource', spec: { owner: 'o' } }), 'spec.type'],
  ['System with owner only', (e) => Object.assign(e, { kind: 'System', spec: { owner: 'o' } }), null],
  [
    'Domain with subdomainOf',
    (e) => Object.assign(e, { kind: 'Domain', spec: { owner: 'o', subdomainOf: 'audio' } }),
    null,
  ],
  [
    'Domain with subdomainOf a list',
    (e) => Object.assign(e, { kind: 'Domain', spec: { owner: 'o', subdomainOf: ['audio'] } }),
    'spec.subdomainOf',
  ],
  ['Group without children', (e) => Object.assign(e, { kind: 'Group', spec: { type: 'team' } }), 'spec.children'],
  ['Group with empty children', (e) => Object.assign(e, { kind: 'Group', spec: { type: 'team', children: [] } }), null],
  [
    'Group with a bad profile email',
    (e) => Object.assign(e, { kind: 'Group', spec: { type: 'team', children: [], profile: { email: '' } } }),
    'spec.profile.email',
  ],
  ['User without memberOf', (e) => Object.assign(e, { kind: 'User', spec: {} }), 'spec.memberOf'],
  ['User with memberOf', (e) => Object.assign(e, { kind: 'User', spec: { memberOf: ['team-a'] } }), null],
  ['Location with no target at all', (e) => Object.assign(e, { kind: 'Location', spec: {} }), null],
  [
    'Location with a bad presence',
    (e) => Object.assign(e, { kind: 'Location', spec: { target: './x.yaml', presence: 'sometimes' } }),
    'spec.presence',
  ],
  [
    'Location with targets a string',
    (e) => Object.assign(e, { kind: 'Location', spec: { targets: './x.yaml' } }),
    'spec.targets',
  ],
];

describe('catalog/validateEntity', () => {
  describe('entities, differential against @backstage/catalog-model', () => {
    for (const [description, mutate, firstErrorField] of TABLE) {
      it(description, async () => {
        const entity = component();
        mutate(entity);
        const ours = validateEntity(entity);
        // Backstage rejects an entity no kind processor recognises, so only 'accepted' means valid.
        assert.equal(ours.ok, (await backstageVerdict(entity)) === 'accepted');
        if (firstErrorField === null) {
          assert.ok(ours.ok, ours.ok ? '' : ours.errors.map((e) => e.message).join('\n'));
        } else {
          assert.ok(!ours.ok);
          assert.equal(ours.errors[0].field, firstErrorField);
        }
      });
    }

    it('keeps kinds Backstage has no built-in processor for, which Backstage would leave unrecognized', async () => {
      const template = {
        apiVersion: 'scaffolder.backstage.io/v1beta3',
        kind: 'Template',
        metadata: { name: 'new-service' },
        spec: { owner: 'team-a', type: 'service', steps: [] },
      };
      assert.equal(await backstageVerdict(template), 'unrecognized');
      const ours = validateEntity(template);
      assert.ok(ours.ok);
      assert.deepEqual(ours.entity, {
        apiVersion: 'scaffolder.backstage.io/v1beta3',
        kind: 'Template',
        namespace: 'default',
        name: 'new-service',
        metadata: { name: 'new-service' },
        spec: { owner: 'team-a', type: 'service', steps: [] },
      });
      assert.deepEqual(ours.warnings, []);
    });

    it('warns when a built-in kind is written in the wrong case and keeps it as a custom kind', async () => {
      const entity = { ...component(), kind: 'component' };
      assert.equal(await backstageVerdict(entity), 'unrecognized');
      const ours = validateEntity(entity);
      assert.ok(ours.ok);
      assert.deepEqual(ours.warnings, [
        {
          path: ['kind'],
          field: 'kind',
          message:
            'kind "component" is not the built-in kind "Component" (kinds are case-sensitive); it is kept as a custom kind without relations',
        },
      ]);
    });
  });

  describe('messages', () => {
    it('names the field, the value and what was expected, for every broken field at once', () => {
      const entity: any = component();
      entity.metadata.name = 'Foo Bar';
      entity.metadata.tags = ['Java'];
      delete entity.spec.owner;
      const ours = validateEntity(entity);
      assert.ok(!ours.ok);
      assert.deepEqual(
        ours.errors.map((e) => e.message),
        [
          'metadata.name "Foo Bar" is not a valid name: expected sequences of [a-zA-Z0-9] separated by any of [-_.], at most 63 characters in total',
          'metadata.tags[0] "Java" is not a valid tag: expected sequences of [a-z0-9:+#] separated by [-], at most 63 characters in total',
          'spec.owner is required for kind Component',
        ],
      );
    });

    it('says which apiVersions a built-in kind is recognised under', () => {
      const ours = validateEntity({ ...component(), apiVersion: 'acme.com/v1' });
      assert.ok(!ours.ok);
      assert.deepEqual(
        ours.errors.map((e) => e.message),
        [
          'apiVersion "acme.com/v1" is not recognised for kind Component: expected backstage.io/v1alpha1 or backstage.io/v1beta1',
        ],
      );
    });

    it('describes non-string values and unknown root fields', () => {
      const ours = validateEntity({ ...component(), status: {}, metadata: { name: 42 } });
      assert.ok(!ours.ok);
      assert.deepEqual(
        ours.errors.map((e) => e.message),
        [
          'status is not an entity field: only apiVersion, kind, metadata and spec may appear at the top level',
          'metadata.name must be a non-empty string, found number 42',
        ],
      );
      assert.deepEqual(validateEntity('just text'), {
        ok: false,
        errors: [
          {
            path: [],
            field: '<root>',
            message: 'An entity must be a mapping with apiVersion, kind, metadata and spec, found "just text"',
          },
        ],
        warnings: [],
      });
    });
  });

  describe('field formats, differential against @backstage/catalog-model', () => {
    const k8s = backstage.KubernetesValidatorFunctions;
    const common = backstage.CommonValidatorFunctions;
    const defaults = backstage.makeValidator();
    const VALUES: unknown[] = [
      '',
      'a',
      'A',
      'a-b',
      'a--b',
      '-a',
      'a-',
      'a_b',
      'a.b',
      'a..b',
      'A.b_C-d',
      '1',
      'a b',
      ' a',
      'a/b',
      '/b',
      'a/',
      'a/b/c',
      'backstage.io/v1alpha1',
      'Backstage.io/v1',
      'acme.com/tier',
      'x'.repeat(63),
      'x'.repeat(64),
      `${'a'.repeat(63)}.${'b'.repeat(63)}/c`,
      'c++',
      'c#',
      'lang:go',
      'a+b-c#',
      'a:b',
      'Java',
      'ünïcode',
      'https://example.com',
      'http://x',
      'mailto:a@b.c',
      'not a url',
      'dir:.',
      '   ',
      'kind1',
      '1kind',
      'Kind-1',
      5,
      null,
      undefined,
      true,
      ['a'],
      { a: 1 },
    ];
    const pairs: [string, (v: unknown) => boolean, (v: unknown) => boolean][] = [
      ['isValidApiVersion', formats.isValidApiVersion, (v) => k8s.isValidApiVersion(v)],
      ['isValidKind', formats.isValidKind, (v) => k8s.isValidKind(v)],
      ['isValidObjectName', formats.isValidObjectName, (v) => k8s.isValidObjectName(v)],
      ['isValidNamespace', formats.isValidNamespace, (v) => k8s.isValidNamespace(v)],
      ['isValidLabelKey', formats.isValidLabelKey, (v) => k8s.isValidLabelKey(v)],
      ['isValidLabelValue', formats.isValidLabelValue, (v) => k8s.isValidLabelValue(v)],
      ['isValidAnnotationKey', formats.isValidAnnotationKey, (v) => k8s.isValidAnnotationKey(v)],
      ['isValidAnnotationValue', formats.isValidAnnotationValue, (v) => k8s.isValidAnnotationValue(v)],
      ['isValidTag', formats.isValidTag, (v) => defaults.isValidTag(v)],
      ['isValidDnsLabel', formats.isValidDnsLabel, (v) => common.isValidDnsLabel(v)],
      ['isValidDnsSubdomain', formats.isValidDnsSubdomain, (v) => common.isValidDnsSubdomain(v)],
      ['isValidUrl', formats.isValidUrl, (v) => common.isValidUrl(v)],
      ['isNonEmptyString', formats.isNonEmptyString, (v) => common.isNonEmptyString(v)],
    ];
    for (const [name, ours, theirs] of pairs) {
      it(`${name} agrees on ${VALUES.length} values`, () => {
        const disagreements = VALUES.filter((v) => ours(v) !== theirs(v)).map((v) => JSON.stringify(v));
        assert.deepEqual(disagreements, []);
      });
    }

    it('accepts and rejects the documented examples', () => {
      assert.equal(formats.isValidTag('lang:go'), true);
      assert.equal(formats.isValidTag('Java'), false);
      assert.equal(formats.isValidObjectName('x'.repeat(64)), false);
      assert.equal(formats.isValidApiVersion('backstage.io/v1alpha1'), true);
      assert.equal(formats.isValidLabelKey('a/b/c'), false);
    });
  });
});
