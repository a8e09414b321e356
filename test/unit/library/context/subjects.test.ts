/**
 * What a page is about, read from what it and its library say (subjects.ts), on three real
 * libraries nobody here wrote: awesome-copilot's instruction files (file names and titles),
 * instructa/ai-prompts' Cursor rules (a folder per stack or service, titles that are sections) and
 * the Windsurf rules agent-rules-kit installs (a folder per stack, the same file names in every one).
 */
import assert from 'node:assert/strict';
import { contextIndex } from '../../../../server/src/library/context/contextIndex';
import { searchSections } from '../../../../server/src/library/context/sectionSearch';
import {
  fileStemOf,
  ownTitleOf,
  placeOf,
  subjectWords,
  type LibrarySubjects,
} from '../../../../server/src/library/context/subjects';
import { devLibraries, pageLabel, type Indexed } from './herald';

const short = pageLabel;

function names(lib: Indexed, subjects: LibrarySubjects, page: string): string[] {
  const doc = lib.view.docs.find((d) => short(d.path) === page);
  assert.ok(doc, `no page ${page}`);
  return [...(subjects.of(doc)?.names ?? [])].sort();
}

describe("get_context: a page's subject from what it says", function () {
  this.timeout(120_000);
  const libs = devLibraries();

  it('reads names as pages write them: Next.js, nextjs and next-15 are one; versions apart; C# and .NET whole', () => {
    const keys = (text: string) => subjectWords(text).map((w) => (w.version ? `v${w.key}` : w.key));
    assert.deepEqual(keys('Next.js 15'), ['next', 'v15']);
    assert.deepEqual(keys('nextjs'), ['next']);
    assert.deepEqual(keys('next-15'), ['next', 'v15']);
    assert.deepEqual(keys('Tailwind CSS v4'), ['tailwind', 'css', 'v4']);
    assert.deepEqual(keys('java21 auth0 vue3'), ['java', 'v21', 'auth0', 'vue3']);
    assert.deepEqual(keys('an MCP server in C# on .NET'), ['mcp', 'server', 'csharp', 'dotnet']);
    assert.deepEqual(keys('assertAll'), ['assertal', 'assert']);
  });

  it("takes the folders below a format's root and the file name, never a format's own file name", () => {
    assert.deepEqual(placeOf('.cursor/rules/clerk-next/setup-clerk-next.mdc'), ['clerk-next']);
    assert.deepEqual(placeOf('apps/web/.windsurf/rules/nextjs/best-practices.md'), ['nextjs']);
    assert.deepEqual(placeOf('.github/instructions/go.instructions.md'), []);
    assert.deepEqual(placeOf('payments-platform/AGENTS.md'), ['payments-platform']);
    assert.equal(fileStemOf('.github/instructions/rust-mcp-server.instructions.md'), 'rust-mcp-server');
    assert.equal(fileStemOf('payments-platform/AGENTS.md'), '');
  });

  it('has no title when the first heading is one section of several: the folder and description say the subject', () => {
    const lib = libs['instructa-ai-prompts'];
    const page = lib.view.docs.find((d) => short(d.path) === 'next-15/rule-next-coding-standards')!;
    assert.equal(page.title, 'Project Structure And App Router');
    assert.equal(ownTitleOf(page), undefined);
    const subjects = contextIndex(lib.view).subjects;
    // "rule", "coding", "standards" are on most pages: the kind of page, not its subject.
    assert.deepEqual(names(lib, subjects, 'next-15/rule-next-coding-standards'), ['next']);
    assert.deepEqual(names(lib, subjects, 'clerk-next/setup-clerk-next'), ['clerk', 'next']);
    assert.ok(subjects.isProper('clerk') && subjects.isProper('next'));
    assert.ok(subjects.rivals('clerk').has('supabas'), [...subjects.rivals('clerk')].join(' '));
    assert.ok(subjects.rivals('next').has('react'), [...subjects.rivals('next')].join(' '));
  });

  it('tells a stack from a topic the same way in every folder: the folder names the stack, the title its topic', () => {
    const lib = libs['windsurf-agent-rules-kit'];
    const subjects = contextIndex(lib.view).subjects;
    assert.deepEqual(names(lib, subjects, 'nextjs/best-practices'), ['next']);
    assert.deepEqual(names(lib, subjects, 'nextjs/state-management'), ['manag', 'next', 'state']);
    assert.deepEqual(names(lib, subjects, 'react/styling'), ['react', 'style']);
    // Topics recur across stacks; "state" is written in lower case, "React" with a capital.
    assert.ok(subjects.isAxis('state') && !subjects.isProper('state'));
    assert.ok(subjects.isProper('react') && subjects.rivals('react').has('next'));
  });

  it('keeps the words of a title its text bears out, and leaves the kind of page out', () => {
    const lib = libs['awesome-copilot'];
    const subjects = contextIndex(lib.view).subjects;
    // "Arch Linux Administration Guidelines": the text never speaks of administration.
    assert.deepEqual(names(lib, subjects, 'arch-linux'), ['arch', 'linux']);
    // "Go MCP Server Development Guidelines": "Development Guidelines" is in most titles.
    assert.deepEqual(names(lib, subjects, 'go-mcp-server'), ['go', 'mcp', 'server']);
    assert.deepEqual(names(lib, subjects, 'nextjs'), ['next']);
    assert.ok(subjects.isAxis('mcp'));
  });

  it('lets a one-word facet rank but never set a similarity', async () => {
    const lib = libs['awesome-copilot'];
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
