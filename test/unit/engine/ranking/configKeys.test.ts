/**
 * Configuration keys asked by their dotted path, and release notes that name them in passing
 * (contract 2026-12-04.1), on real pages of two documentation sites nobody here wrote
 * (bench/corpora: cert-manager's docs, Apache-2.0, and GoReleaser's, MIT; see their SOURCE.txt),
 * each set of pages indexed as the docs repository they come from. Every case failed before key
 * paths were indexed and release notes weighed.
 */
import assert from 'node:assert/strict';
import type { Engine } from '../../../../server/src/engine/engine';
import type { IndexState } from '../../../../server/src/engine/indexState';
import { RELEASE_NOTE_WEIGHT } from '../../../../server/src/engine/ranking/contract';
import type { RankedPassage } from '../../../../server/src/engine/ranking/workspaceContextRanker';
import { removeTempDirs } from '../../../helpers/tempWorkspace';
import { corpusDocsRepository, heading, index, rank } from './rankingFixture';

const words = (p: RankedPassage) => p.why.find((w) => w.signal === 'words')!;

describe('workspace_context: configuration keys and release notes', () => {
  const engines: Engine[] = [];
  after(() => {
    engines.splice(0).forEach((e) => e.dispose());
    removeTempDirs();
  });
  const indexed = async (dir: string): Promise<IndexState> => {
    const { engine, state } = await index(dir);
    engines.push(engine);
    return state;
  };

  describe('cert-manager: a key the reference nests in YAML, that release notes spell in full', () => {
    let state: IndexState;
    before(async () => {
      state = await indexed(
        corpusDocsRepository('cert-manager', [
          'usage/certificate.md',
          'reference/annotations.md',
          'releases/release-notes/release-notes-1.8.md',
          'releases/release-notes/release-notes-1.18.md',
          'releases/upgrading/upgrading-1.7-1.8.md',
          'releases/upgrading/upgrading-1.17-1.18.md',
          'configuration/acme/http01/README.md',
        ]),
      );
    });

    it('a nested-YAML key asked as a dotted path: the section that nests it holds the whole path', () => {
      const passages = rank(state, 'spec.privateKey.rotationPolicy');
      const at = passages.findIndex(
        (p) => heading(p) === 'docs/usage/certificate.md › Issuance behavior: Rotation of the private key',
      );
      // With the annotation that sets the same field (`reference/annotations.md`, which spells the path), ahead of every release note.
      assert.ok(at >= 0 && at <= 1, `rank ${at + 1}: ${passages.slice(0, 3).map(heading).join(' | ')}`);
      const firstNote = passages.findIndex((p) => p.entry.doc.path.startsWith('docs/releases/'));
      assert.ok(firstNote < 0 || firstNote > at, `a release note at ${firstNote + 1}`);
      const term = words(passages[at]).terms![0];
      assert.equal(term.term, 'spec.privateKey.rotationPolicy');
      assert.deepEqual(term.fields, ['body'], 'the whole path, from the YAML block, not its parts');
    });

    it('a changelog that names the key beside the page that documents it: the page first, the release notes weighed and saying why', () => {
      const passages = rank(state, 'spec.privateKey.rotationPolicy default Never or Always');
      assert.equal(passages[0].entry.doc.path, 'docs/usage/certificate.md');
      const notes = passages.filter((p) => p.entry.doc.path.startsWith('docs/releases/'));
      assert.ok(notes.length > 0, 'the release notes still come, after the page');
      for (const p of notes) {
        assert.equal(words(p).weight, RELEASE_NOTE_WEIGHT);
        assert.match(
          words(p).detail,
          /a release note \(by its path or title\) and the question asks about no version or change/,
        );
      }
      // Asked about the release, the notes count in full and answer first.
      const asked = rank(state, 'what changed about spec.privateKey.rotationPolicy in 1.18?');
      assert.ok(asked[0].entry.doc.path.startsWith('docs/releases/'), heading(asked[0]));
      assert.equal(words(asked[0]).weight, 1);
      assert.doesNotMatch(words(asked[0]).detail, /release note/);
    });

    it('a path written with array marks matches the YAML that nests it under a list', () => {
      const passages = rank(state, 'spec.acme.solvers[].http01.ingress.podTemplate.spec.nodeSelector');
      assert.equal(heading(passages[0]), 'docs/configuration/acme/http01/README.md › `podTemplate`');
      const term = words(passages[0]).terms![0];
      assert.equal(term.term, 'spec.acme.solvers[].http01.ingress.podTemplate.spec.nodeSelector');
      assert.deepEqual(term.fields, ['body']);
    });
  });

  describe('GoReleaser: keys in a configuration reference, a fragment and a release announcement', () => {
    let state: IndexState;
    before(async () => {
      state = await indexed(
        corpusDocsRepository('goreleaser', [
          'customization/publish/snapshots.md',
          'customization/publish/homebrew_casks.md',
          'customization/publish/changelog.md',
          'customization/ci/actions.md',
          'includes/repository.md',
          'resources/errors/resource-not-accessible-by-integration.md',
          'blog/goreleaser-v2.2.md',
          'blog/goreleaser-v2.10.md',
          'blog/rust-zig.md',
        ]),
      );
    });

    it('the configuration page that nests the key, above the release announcement that spells it', () => {
      const passages = rank(state, 'snapshot.version_template');
      assert.equal(passages[0].entry.doc.path, 'docs/customization/publish/snapshots.md');
      const announcement = passages.find((p) => p.entry.doc.path === 'docs/blog/goreleaser-v2.2.md');
      assert.ok(announcement, 'the announcement is still among the passages');
      assert.match(words(announcement).detail, /a signed record .*; a release note/);
      // A page named changelog that documents a feature is no release note.
      const feature = rank(state, 'changelog.use github-native');
      assert.equal(feature[0].entry.doc.path, 'docs/customization/publish/changelog.md');
      assert.equal(words(feature[0]).weight, 1);
    });

    it('a longer path meets the fragment that shows its tail, credited by the share of the path it holds', () => {
      const passages = rank(state, 'homebrew_casks.repository.token');
      assert.equal(passages[0].entry.doc.path, 'docs/includes/repository.md');
      const term = words(passages[0]).terms![0];
      assert.deepEqual(term.fields, ['trailing']);
      assert.equal(term.matched, 'repository.token');
      assert.match(
        words(passages[0]).detail,
        /homebrew_casks\.repository\.token \d\.\d\d \(trailing repository\.token\)/,
      );
      assert.ok(term.saturation > 0 && term.saturation < 0.9 * 0.6, `${term.saturation}: less than a whole match`);
    });
  });

  describe("Spring Cloud Gateway: a property table's key column, and a key written camelCase or kebab-case", () => {
    let state: IndexState;
    const table = 'docs/modules/ROOT/partials/_configprops.adoc';
    const tls = 'docs/modules/ROOT/pages/spring-cloud-gateway-server-webflux/tls-and-ssl.adoc';
    before(async () => {
      state = await indexed(
        corpusDocsRepository('spring-cloud-gateway', [
          'antora.yml',
          'modules/ROOT/partials/_configprops.adoc',
          'modules/ROOT/pages/spring-cloud-gateway-server-webflux/tls-and-ssl.adoc',
          'modules/ROOT/pages/spring-cloud-gateway-server-webmvc/tls-and-ssl.adoc',
          'modules/ROOT/pages/spring-cloud-gateway-server-webflux/troubleshooting.adoc',
          'modules/ROOT/pages/spring-cloud-gateway-server-webflux/http-timeouts-configuration.adoc',
        ]),
      );
    });

    it('a key asked camelCase meets the table row that writes it kebab-case under its full path', () => {
      // The YAML of tls-and-ssl.adoc nests `useInsecureTrustManager`; the table's row is
      // `spring.cloud.gateway.server.webflux.httpclient.ssl.use-insecure-trust-manager`.
      const passages = rank(state, 'httpclient.ssl.useInsecureTrustManager');
      const files = [...new Set(passages.map((p) => p.entry.doc.path))];
      assert.deepEqual(files.slice(0, 2).sort(), [table, tls].sort(), files.join(' | '));
      const row = words(passages.find((p) => p.entry.doc.path === table)!).terms![0];
      assert.equal(row.term, 'httpclient.ssl.useInsecureTrustManager');
      assert.deepEqual(row.fields, ['body'], 'held whole, one spelling of the same key');
    });

    it('asked kebab-case, the table that spells it so comes first and the camelCase YAML follows, credited as a trailing form', () => {
      const passages = rank(state, 'httpclient.ssl.use-insecure-trust-manager');
      assert.equal(passages[0].entry.doc.path, table);
      const yaml = words(passages.find((p) => p.entry.doc.path === tls)!).terms![0];
      assert.deepEqual(yaml.fields, ['trailing']);
      assert.equal(yaml.matched, 'httpclient.ssl.useinsecuretrustmanager');
    });
  });

  describe('external-secrets: a key every example manifest shows, and the pages that explain it', () => {
    let state: IndexState;
    before(async () => {
      state = await indexed(
        corpusDocsRepository('secrets/external-secrets', [
          'introduction/faq.md',
          'api/externalsecret.md',
          'provider/cloudru.md',
          'provider/fortanix.md',
          'provider/kubernetes.md',
          'provider/ovhcloud.md',
          'provider/aws-secrets-manager.md',
        ]),
      );
    });

    it('a section showing the key in three manifests holds it no more than one showing it once', () => {
      const passages = rank(state, 'spec.refreshInterval', 30);
      const cloudru = passages.find((p) => p.entry.doc.path === 'docs/provider/cloudru.md')!;
      const faq = passages.find(
        (p) => heading(p) === 'docs/introduction/faq.md › How do I know when my secret was last synced?',
      )!;
      assert.ok(cloudru && faq, passages.slice(0, 5).map(heading).join(' | '));
      const held = (p: RankedPassage) => words(p).terms![0].saturation;
      // cloudru.md's section shows `refreshInterval: 10s` under `spec:` in three manifests; the FAQ names it once, in prose.
      assert.ok(held(cloudru) <= held(faq) + 1e-9, `${held(cloudru)} > ${held(faq)}`);
    });

    it('the pages that explain the key come before the manifests that only show it', () => {
      const passages = rank(state, 'spec.refreshInterval');
      const files = [...new Set(passages.map((p) => p.entry.doc.path))];
      assert.equal(files[0], 'docs/api/externalsecret.md', files.join(' | '));
      const faq = files.indexOf('docs/introduction/faq.md');
      const manifests = ['docs/provider/cloudru.md', 'docs/provider/fortanix.md'].map((f) => files.indexOf(f));
      for (const m of manifests)
        assert.ok(m < 0 || faq < m, `faq ${faq + 1}, a manifest page ${m + 1}: ${files.join(' | ')}`);
    });
  });
});
