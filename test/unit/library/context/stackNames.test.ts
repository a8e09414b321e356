import assert from 'node:assert/strict';
import * as path from 'node:path';
import { contextIndex } from '../../../../server/src/library/context/contextIndex';
import { searchSections } from '../../../../server/src/library/context/sectionSearch';
import { unknownNames } from '../../../../server/src/library/context/stackNames';
import { identityTerms } from '../../../../server/src/engine/text/identityTerms';
import { indexDir, run, type Indexed } from './herald';

/** 54 instruction files of github/awesome-copilot, verbatim (test/fixtures/awesome-copilot/SOURCE.txt). */
const AWESOME = path.resolve(__dirname, '../../../fixtures/awesome-copilot/library');

const file = (p: string) => path.basename(p).replace(/\.instructions\.md$/, '');

describe('get_context without a model: another stack than the task names (library stacks, awesome-copilot)', function () {
  this.timeout(120_000);
  let lib: Indexed;
  before(async () => {
    lib = await indexDir(AWESOME, 'awesome');
  });
  after(() => lib.engine.dispose());

  it('names a page by its title, file name, tags and applyTo file types, not by words most pages share', () => {
    const index = contextIndex(lib.view);
    const page = (name: string) => lib.view.docs.find((d) => file(d.path) === name)!;
    const names = [...index.stacks.namesOf(page('go-mcp-server'))].sort();
    assert.ok(names.includes('go') && names.includes('mcp'), names.join(' '));
    assert.ok(
      !names.includes('develop') && !names.includes('guidelin'),
      `"Development Guidelines" is in most titles: ${names.join(' ')}`,
    );
    assert.deepEqual([...identityTerms('an MCP server in C# on .NET')].sort(), ['csharp', 'dotnet', 'mcp', 'server']);
  });

  it('drops the read-alike page of another SDK, keeping the one the task names', () => {
    const index = contextIndex(lib.view);
    const task = identityTerms('add a tool to our MCP server written in Go with the official go-sdk');
    const other = (name: string) => index.stacks.otherThanTask(lib.view.docs.find((d) => file(d.path) === name)!, task);
    assert.equal(other('go-mcp-server'), undefined);
    assert.equal(other('python-mcp-server'), 'python');
    assert.equal(other('kotlin-mcp-server'), 'kotlin');
    // Same language, another job: not a rival (it names nothing the task lacks against the Go MCP page).
    assert.equal(other('go'), undefined);
    // Scoped to other file types: Terraform on SAP BTP is no page for a Go task.
    assert.notEqual(other('terraform-sap-btp'), undefined);
  });

  it('sends the Go MCP page and none of the nine other MCP SDKs', async () => {
    const built = await run(lib.view, 'add a tool to our MCP server written in Go with the official go-sdk');
    const pages = built.bundle.reference.map((p) => file(p.doc.path));
    assert.ok(pages.includes('go-mcp-server'), pages.join(' '));
    assert.deepEqual(
      pages.filter((p) => p.endsWith('-mcp-server') && p !== 'go-mcp-server'),
      [],
    );
    assert.equal(built.bundle.nothingFound, undefined);
  });

  it('tells Java versions apart by the numbers the task says', async () => {
    const built = await run(lib.view, 'upgrade a codebase from Java 17 to Java 21 and adopt virtual threads');
    const pages = built.bundle.reference.map((p) => file(p.doc.path));
    assert.ok(pages.includes('java-17-to-java-21-upgrade'), pages.join(' '));
    assert.ok(
      !pages.includes('java-11-to-java-17-upgrade') && !pages.includes('java-21-to-java-25-upgrade'),
      pages.join(' '),
    );
  });

  it('answers nothing-found for a stack the library never mentions, instead of the nearest other stack', async () => {
    const df = (t: string) => lib.view.state.lexical.df(t);
    assert.deepEqual(unknownNames('write a Django view with the ORM and a migration', df), ['Django']);
    assert.deepEqual(
      unknownNames('Write a Go MCP server with the official SDK', df),
      [],
      'Go, MCP and SDK are in the library; the first word never counts',
    );
    const django = await run(lib.view, 'write a Django view with the ORM and a migration');
    assert.deepEqual(
      django.bundle.reference.map((p) => file(p.doc.path)),
      [],
    );
    assert.ok(
      django.bundle.nothingFound && django.bundle.nothingFound.nearest.length >= 2,
      'the nearest pages are named',
    );
    const laravel = await run(lib.view, 'write a Laravel Eloquent model with relationships');
    assert.ok(laravel.bundle.nothingFound, laravel.bundle.reference.map((p) => p.doc.path).join(' '));
  });

  it('lets a one-word facet rank but never set a similarity', async () => {
    const index = contextIndex(lib.view);
    const alone = await searchSections({
      index,
      sections: lib.view.sections,
      queries: ['write a Django view', 'migration'],
      names: [],
      tags: [],
      liftedPages: new Set(),
    });
    const migration = alone.hits.filter((h) => /migration/i.test(h.entry.section.headingPath.join(' ')));
    assert.ok(
      migration.every((h) => h.signals.words < 1),
      migration.map((h) => `${h.entry.section.headingPath.join(' > ')} ${h.signals.words}`).join('\n'),
    );
    const asTask = await searchSections({
      index,
      sections: lib.view.sections,
      queries: ['migration'],
      names: [],
      tags: [],
      liftedPages: new Set(),
    });
    assert.ok(
      asTask.hits.some((h) => h.signals.words === 1),
      'the same word as the task itself scores in full',
    );
  });
});
