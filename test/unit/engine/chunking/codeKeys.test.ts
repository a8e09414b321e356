import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  configLanguageOf,
  forEachCodeKeyPath,
  forEachConfigKeyPath,
  type ConfigLanguage,
} from '../../../../server/src/engine/chunking/codeKeys';
import { forEachKeyPathTerm } from '../../../../server/src/engine/chunking/sectionKeyPaths';

const CORPORA = path.resolve(__dirname, '../../../../bench/corpora');

const paths = (language: ConfigLanguage, text: string) => {
  const out: string[] = [];
  forEachConfigKeyPath(language, text, (segments) => out.push(segments.join('.')));
  return out;
};
const blockPaths = (markdown: string) => {
  const out: string[] = [];
  forEachCodeKeyPath(markdown, (segments) => out.push(segments.join('.')));
  return out;
};

describe('configuration key paths of code blocks', () => {
  it('reads YAML by indentation: list items under their list, comments and block scalars skipped, odd keys end a path', () => {
    const yaml = [
      'archives:',
      '  - #',
      '    # ID of this archive.',
      '    id: my-archive',
      '    format_overrides:',
      '      - goos: windows',
      '        formats: ["zip"]',
      '    # files:',
      '    hooks:',
      '      before: |',
      '        make clean',
      '        not.a: key',
      '      after: []',
      'metadata:',
      '  annotations:',
      '    cert-manager.io/issuer: ca',
      '    "my key":',
      '      nested: 1',
      '---',
      'kind: Certificate',
    ].join('\n');
    assert.deepEqual(paths('yaml', yaml), [
      'archives.id',
      'archives.format_overrides',
      'archives.format_overrides.goos',
      'archives.format_overrides.formats',
      'archives.hooks',
      'archives.hooks.before',
      'archives.hooks.after',
      'metadata.annotations',
    ]);
  });

  it('reads JSON with comments by its brackets, arrays under their key', () => {
    const json =
      '{\n  // the server\n  "server": { "port": 8080, "tls": { "cert": "a" } },\n  "routes": [ { "path": "/", "weight": 1 } ],\n  "a.b": { "c": 1 }\n}';
    assert.deepEqual(paths('json', json), [
      'server.port',
      'server.tls',
      'server.tls.cert',
      'routes.path',
      'routes.weight',
    ]);
  });

  it('reads TOML tables, arrays of tables and dotted keys', () => {
    const toml = [
      '[tool.ruff.lint]',
      'select = ["E"]',
      '[[inputs.cpu]]',
      'percpu = true',
      'a.b = 1',
      'doc = """',
      'x = 1',
      '"""',
    ].join('\n');
    assert.deepEqual(paths('toml', toml), [
      'tool.ruff.lint',
      'tool.ruff.lint.select',
      'inputs.cpu',
      'inputs.cpu.percpu',
      'inputs.cpu.a',
      'inputs.cpu.a.b',
      'inputs.cpu.doc',
    ]);
  });

  it('takes tagged fences, untagged and indented blocks that read as YAML, and quoted fences; not shell sessions', () => {
    const markdown = [
      'Intro.',
      '',
      '```yaml {filename=".goreleaser.yaml"}',
      'snapshot:',
      '  version_template: "{{ .Version }}"',
      '```',
      '',
      '```bash',
      'helm install --set a.b=c',
      '```',
      '',
      '```',
      'git:',
      '  tag_sort: semver',
      '  ignore_tags: []',
      '```',
      '',
      '```console',
      '$ kubectl get pods',
      'NAME: x',
      '```',
      '',
      '> ```yaml',
      '>       kubernetes:',
      '>         serviceAccountRef:',
      '>           audiences: [ x ]',
      '> ```',
      '',
      '    repository:',
      '      token: abc',
    ].join('\n');
    assert.deepEqual(blockPaths(markdown), [
      'snapshot.version_template',
      'git.tag_sort',
      'git.ignore_tags',
      'kubernetes.serviceAccountRef',
      'kubernetes.serviceAccountRef.audiences',
      'repository.token',
    ]);
  });

  it('knows configuration files by their name', () => {
    assert.equal(configLanguageOf('deploy/values.YAML'), 'yaml');
    assert.equal(configLanguageOf('a/b.json'), 'json');
    assert.equal(configLanguageOf('pyproject.toml'), 'toml');
    assert.equal(configLanguageOf('docs/index.md'), undefined);
  });

  it('gives a real page its nested keys as index terms (GoReleaser snapshots page, cert-manager rotation section)', () => {
    const terms = (file: string) => {
      const out = new Set<string>();
      forEachKeyPathTerm(readFileSync(path.join(CORPORA, file), 'utf8'), file, (t) => out.add(t));
      return out;
    };
    assert.deepEqual(
      [...terms('goreleaser/docs/customization/publish/snapshots.md')],
      ['snapshot.version_template', 'snapshot.versiontemplate'],
    );
    const certificate = terms('cert-manager/docs/usage/certificate.md');
    for (const t of [
      'spec.privatekey.rotationpolicy',
      'privatekey.rotationpolicy',
      'spec.renewal.windows.windowduration',
      'spec.keystores.pkcs12.create',
    ])
      assert.ok(certificate.has(t), t);
    // An included fragment, indented as a code block: its keys under `repository`.
    const repository = terms('goreleaser/docs/includes/repository.md');
    assert.ok(repository.has('repository.token'));
    assert.ok(repository.has('pull_request.base.owner'));
  });
});

describe("configuration key paths of a reference table's key column", () => {
  const terms = (text: string, file = 'docs/reference.md') => {
    const out: string[] = [];
    forEachKeyPathTerm(text, file, (t) => out.push(t));
    return out;
  };

  it('gives a table row whose first cell is one dotted key its trailing forms, Markdown and AsciiDoc', () => {
    const markdown = [
      '| Key | Type | Default |',
      '| --- | --- | --- |',
      '| `controller.image.pullPolicy` | string | `IfNotPresent` |',
      '| values.yaml | file | |',
      '| replicaCount | int | `1` |',
      '| see `a.b.c` in the text | | |',
    ].join('\n');
    assert.deepEqual(terms(markdown), ['image.pullpolicy']);
    const asciidoc =
      '|===\n|Name | Default | Description\n\n|spring.cloud.gateway.server.webflux.x-forwarded.prefix-enabled | `+++true+++` | If the prefix is added.\n|===';
    assert.deepEqual(terms(asciidoc), [
      'cloud.gateway.server.webflux.x-forwarded.prefix-enabled',
      'gateway.server.webflux.x-forwarded.prefix-enabled',
      'server.webflux.x-forwarded.prefix-enabled',
      'webflux.x-forwarded.prefix-enabled',
      'x-forwarded.prefix-enabled',
      'spring.cloud.gateway.server.webflux.xforwarded.prefixenabled',
      'cloud.gateway.server.webflux.xforwarded.prefixenabled',
      'gateway.server.webflux.xforwarded.prefixenabled',
      'server.webflux.xforwarded.prefixenabled',
      'webflux.xforwarded.prefixenabled',
      'xforwarded.prefixenabled',
    ]);
  });

  it('leaves dotted paths in prose and in other cells alone', () => {
    assert.deepEqual(terms('Set `spring.cloud.gateway.server.webflux.enabled` to false.\n| on | spring.a.b |'), []);
  });

  it("gives Spring Cloud Gateway's property table the key a question names by its last keys, camelCase", () => {
    const file = 'spring-cloud-gateway/docs/modules/ROOT/partials/_configprops.adoc';
    const table = new Set(terms(readFileSync(path.join(CORPORA, file), 'utf8'), file));
    // The table writes use-insecure-trust-manager; YAML and questions write useInsecureTrustManager.
    assert.ok(table.has('httpclient.ssl.useinsecuretrustmanager'));
    assert.ok(table.has('httpclient.ssl.use-insecure-trust-manager'));
    assert.ok(table.has('redis-rate-limiter.remaining-header'));
  });
});
