import assert from 'node:assert/strict';
import {
  askedPath,
  forEachMarkedPath,
  keyPathSegments,
  keyPathTerms,
  PLACEHOLDER,
  unseparated,
} from '../../../../server/src/engine/text/keyPaths';

describe('key paths', () => {
  describe('keyPathSegments', () => {
    it('reads dotted keys as written, case kept', () => {
      assert.deepEqual(keyPathSegments('spec.privateKey.rotationPolicy'), ['spec', 'privateKey', 'rotationPolicy']);
      assert.deepEqual(keyPathSegments('archives.format_overrides.formats'), [
        'archives',
        'format_overrides',
        'formats',
      ]);
      assert.deepEqual(keyPathSegments('x-kubernetes.preserve-unknown'), ['x-kubernetes', 'preserve-unknown']);
    });
    it('drops array marks and numeric items: a list item shows its keys under the list', () => {
      assert.deepEqual(keyPathSegments('spec.acme.solvers[].http01'), ['spec', 'acme', 'solvers', 'http01']);
      assert.deepEqual(keyPathSegments('solvers[0].http01.ingress'), ['solvers', 'http01', 'ingress']);
      assert.deepEqual(keyPathSegments('solvers.0.http01'), ['solvers', 'http01']);
      assert.deepEqual(keyPathSegments('a[*].b'), ['a', 'b']);
    });
    it('keeps placeholders as placeholders', () => {
      assert.deepEqual(keyPathSegments('steps.<name>.when'), ['steps', PLACEHOLDER, 'when']);
      assert.deepEqual(keyPathSegments('servers.{id}.url.scheme'), ['servers', PLACEHOLDER, 'url', 'scheme']);
      assert.deepEqual(keyPathSegments('http.routers.*.rule'), ['http', 'routers', PLACEHOLDER, 'rule']);
    });
    it('is null for what is not a key path', () => {
      assert.equal(keyPathSegments('rotationPolicy'), null);
      assert.equal(keyPathSegments('v1.2.3'), null);
      assert.equal(keyPathSegments('cert-manager.io/issuer'), null);
      assert.equal(keyPathSegments('a..b'), null);
      assert.equal(keyPathSegments('<name>.b'), null);
    });
  });

  it('keyPathTerms: the whole form and each trailing form of two or more keys, lower-cased, none spanning a placeholder', () => {
    assert.deepEqual(keyPathTerms(['spec', 'privateKey', 'rotationPolicy']), [
      'spec.privatekey.rotationpolicy',
      'privatekey.rotationpolicy',
    ]);
    assert.deepEqual(keyPathTerms(['a', 'b']), ['a.b']);
    assert.deepEqual(keyPathTerms(['steps', PLACEHOLDER, 'when', 'branch']), ['when.branch']);
  });

  it('keyPathTerms: a form that joins words with - or _ is indexed unseparated too, the form camelCase lower-cases to', () => {
    assert.deepEqual(keyPathTerms(['httpclient', 'ssl', 'use-insecure-trust-manager']), [
      'httpclient.ssl.use-insecure-trust-manager',
      'ssl.use-insecure-trust-manager',
      'httpclient.ssl.useinsecuretrustmanager',
      'ssl.useinsecuretrustmanager',
    ]);
    assert.deepEqual(keyPathTerms(['archives', 'format_overrides', 'formats']), [
      'archives.format_overrides.formats',
      'format_overrides.formats',
      'archives.formatoverrides.formats',
      'formatoverrides.formats',
    ]);
    // Spring's three spellings of one property meet in one term.
    for (const key of ['use-insecure-trust-manager', 'use_insecure_trust_manager', 'useInsecureTrustManager'])
      assert.ok(keyPathTerms(['ssl', key]).includes('ssl.useinsecuretrustmanager'), key);
    assert.equal(unseparated('spec.privatekey'), 'spec.privatekey');
  });

  it('askedPath: the whole form (placeholders as *) and the trailing forms a question matches by', () => {
    const p = askedPath(['homebrew_casks', 'repository', 'token']);
    assert.equal(p.whole, 'homebrew_casks.repository.token');
    assert.deepEqual(p.trailing, [
      { term: 'homebrewcasks.repository.token', from: 0 },
      { term: 'repository.token', from: 1 },
    ]);
    assert.deepEqual(p.written, ['homebrew_casks', 'repository', 'token']);
    const q = askedPath(['steps', PLACEHOLDER, 'when', 'branch']);
    assert.equal(q.whole, 'steps.*.when.branch');
    assert.deepEqual(q.trailing, [{ term: 'when.branch', from: 2 }]);
  });

  it('askedPath: a last key of two words or more is also a trailing form alone (leaf), a one-word one is not', () => {
    const p = askedPath(['spec', 'target', 'creationPolicy']);
    assert.deepEqual(p.trailing, [
      { term: 'target.creationpolicy', from: 1 },
      { term: 'creationpolicy', from: 2, leaf: true },
    ]);
    assert.deepEqual(askedPath(['release', 'format_overrides']).trailing, [
      { term: 'release.formatoverrides', from: 0 },
      { term: 'format_overrides', from: 1, leaf: true },
    ]);
    assert.deepEqual(askedPath(['spec', 'enabled']).trailing, []);
    assert.deepEqual(askedPath(['steps', PLACEHOLDER, 'dependsOn']).trailing, [
      { term: 'dependson', from: 2, leaf: true },
    ]);
  });

  it('askedPath: a path written with - or _ also matches by its unseparated forms (a camelCase key as the docs write it)', () => {
    const p = askedPath(['httpclient', 'ssl', 'use-insecure-trust-manager']);
    assert.equal(p.whole, 'httpclient.ssl.use-insecure-trust-manager');
    assert.deepEqual(p.trailing, [
      { term: 'httpclient.ssl.useinsecuretrustmanager', from: 0 },
      { term: 'ssl.use-insecure-trust-manager', from: 1 },
      { term: 'ssl.useinsecuretrustmanager', from: 1 },
      { term: 'use-insecure-trust-manager', from: 2, leaf: true },
    ]);
    // camelCase is the unseparated form already; a placeholder keeps the whole from being one.
    assert.deepEqual(askedPath(['ssl', 'useInsecureTrustManager']).trailing, [
      { term: 'useinsecuretrustmanager', from: 1, leaf: true },
    ]);
    assert.deepEqual(askedPath(['steps', PLACEHOLDER, 'depends_on']).trailing, [
      { term: 'depends_on', from: 2, leaf: true },
    ]);
  });

  it('forEachMarkedPath finds paths the tokenizer would split, and leaves plain dotted identifiers and file names alone', () => {
    const found: [string, string[]][] = [];
    const text =
      'Set spec.acme.solvers[].http01.ingress.class, or steps.<name>.when, or a.0.b; not spec.duration, v1.2.3 or release-notes-1.18.md';
    forEachMarkedPath(text, (start, end, segments) => found.push([text.slice(start, end), segments]));
    assert.deepEqual(found, [
      ['spec.acme.solvers[].http01.ingress.class', ['spec', 'acme', 'solvers', 'http01', 'ingress', 'class']],
      ['steps.<name>.when', ['steps', PLACEHOLDER, 'when']],
      ['a.0.b', ['a', 'b']],
    ]);
  });
});
