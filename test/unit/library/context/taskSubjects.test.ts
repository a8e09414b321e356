/**
 * A task that names a stack gets the stack's general page with the pages of it the task asks for;
 * pages whose subject is another stack, or narrower than the task, stay out, whether or not they
 * read alike (taskSubjects.ts). On three real libraries nobody here wrote, in three formats.
 */
import assert from 'node:assert/strict';
import { contextIndex } from '../../../../server/src/library/context/contextIndex';
import { taskSubjects } from '../../../../server/src/library/context/taskSubjects';
import { devLibraries, pageLabel, run } from './herald';

const short = pageLabel;

describe('get_context: the pages of the subjects a task names', function () {
  this.timeout(120_000);
  const libs = devLibraries();

  const subjectsOf = (set: string, task: string) => {
    const lib = libs[set];
    const s = taskSubjects({
      task,
      subjects: contextIndex(lib.view).subjects,
      docs: lib.view.docs,
      df: (t) => lib.view.state.lexical.df(t),
    });
    const page = (id: string) => short(lib.view.docs.find((d) => d.id === id)!.path);
    return {
      ...s,
      forcedPages: s.forced.map((d) => short(d.path)).sort(),
      otherPages: new Map([...s.other].map(([id, w]) => [page(id), w])),
      narrowerPages: new Map([...s.narrower].map(([id, w]) => [page(id), w])),
    };
  };
  const sent = async (set: string, task: string) => {
    const built = await run(libs[set].view, task);
    return {
      pages: built.bundle.reference.map((p) => short(p.doc.path)),
      nothing: built.bundle.nothingFound !== undefined,
    };
  };

  it("brings a stack's general pages with the pages of the service the task names, keeping the service's pages for other stacks out", async () => {
    const s = subjectsOf(
      'instructa-ai-prompts',
      'protect the dashboard routes of our Next.js 15 app with Clerk middleware',
    );
    assert.deepEqual([...s.named].sort(), ['clerk', 'next']);
    assert.deepEqual(s.forcedPages, [
      'clerk-next/rule-clerk-next-coding-standards',
      'clerk-next/setup-clerk-next',
      'next-15/add-feature-next',
      'next-15/rule-next-coding-standards',
    ]);
    // Clerk on React stands where Clerk on Next.js does, and Supabase on Next.js where Clerk on Next.js does.
    assert.equal(s.otherPages.get('clerk-react/rule-clerk-react-coding-standards'), 'react');
    assert.equal(s.otherPages.get('clerk-nuxt/setup-clerk-nuxt'), 'nuxt');
    assert.equal(s.otherPages.get('supabase-next/setup-supabase-next'), 'supabas');
    // Without Clerk in the task, the Clerk page is narrower than a Next.js task.
    const next = subjectsOf('instructa-ai-prompts', 'a form that posts through a server action in our Next.js page');
    assert.equal(next.narrowerPages.get('clerk-next/setup-clerk-next'), 'clerk');
    assert.deepEqual(next.forcedPages, ['next-15/add-feature-next', 'next-15/rule-next-coding-standards']);
    const { pages } = await sent(
      'instructa-ai-prompts',
      'protect the dashboard routes of our Next.js 15 app with Clerk middleware',
    );
    assert.deepEqual(pages.sort(), s.forcedPages);
  });

  it('finds the general page of a stack by what its pages say, where every stack has a best-practices.md', async () => {
    const task = 'where to keep shared state in our Next.js App Router app';
    const s = subjectsOf('windsurf-agent-rules-kit', task);
    // The stack's general page, and the page about the two things the task names (Next.js, App Router).
    assert.deepEqual(s.forcedPages, ['nextjs/architecture-app-app-router', 'nextjs/best-practices']);
    // React's state page reads like Next.js's; Next.js's styling page stands where its state page does.
    assert.equal(s.otherPages.get('react/state-management'), 'react');
    assert.equal(s.otherPages.get('nextjs/styling'), 'style');
    const { pages } = await sent('windsurf-agent-rules-kit', task);
    assert.ok(pages.includes('nextjs/best-practices') && pages.includes('nextjs/state-management'), pages.join(' '));
    assert.deepEqual(
      pages.filter((p) => !p.startsWith('nextjs/')),
      [],
    );
    // SvelteKit has no general page here (the kit's is an empty stub, left out): none is made up
    // from its two topic pages when the task asks for neither by name.
    assert.deepEqual(
      subjectsOf('windsurf-agent-rules-kit', 'a SvelteKit load function and a nested layout').forcedPages,
      [],
    );
  });

  it('keeps the pages of other stacks out whether or not they read alike', async () => {
    const angular = subjectsOf('instructa-ai-prompts', 'Clerk authentication in a React single-page app');
    assert.ok(angular.otherPages.has('angular-19/add-feature-angular'), [...angular.otherPages.keys()].join(' '));
    const vue = await sent(
      'instructa-ai-prompts',
      'manage component state with signals in Angular 19 standalone components',
    );
    assert.deepEqual(vue.pages.sort(), ['angular-19/add-feature-angular', 'angular-19/rule-angular-coding-standards']);
    const tailwind = await sent(
      'awesome-copilot',
      'install Tailwind CSS v4 in a Vite project with the @tailwindcss/vite plugin',
    );
    assert.deepEqual(tailwind.pages, ['tailwind-v4-vite']);
  });

  it('sends the Rust page for a Rust CLI task, not the Rust MCP server page that matches "config" better', async () => {
    const s = subjectsOf('awesome-copilot', 'a Rust CLI config loader');
    assert.deepEqual([s.forcedPages, s.narrowerPages.get('rust-mcp-server')], [['rust'], 'mcp']);
    const { pages } = await sent('awesome-copilot', 'a Rust CLI config loader');
    assert.ok(pages.includes('rust') && !pages.includes('rust-mcp-server'), pages.join(', '));
  });

  it('sends the general page beside the narrower one when the task names both', async () => {
    const { pages } = await sent(
      'awesome-copilot',
      'style our Next.js App Router layout with Tailwind utility classes',
    );
    assert.ok(pages.includes('nextjs') && pages.includes('nextjs-tailwind'), pages.join(', '));
    const terraform = await sent('awesome-copilot', 'a Terraform module on Azure that creates a Key Vault');
    assert.ok(
      terraform.pages.includes('terraform') && terraform.pages.includes('terraform-azure'),
      terraform.pages.join(', '),
    );
    assert.ok(!terraform.pages.includes('terraform-sap-btp'), terraform.pages.join(', '));
  });

  it("keeps another stack's version of the page out, and another SDK's, and another version's", async () => {
    const playwright = await sent('awesome-copilot', 'write Playwright tests in Python with pytest');
    assert.deepEqual(
      playwright.pages.filter((p) => p.startsWith('playwright') || p.includes('mcp')),
      ['playwright-python'],
    );
    const go = subjectsOf('awesome-copilot', 'add a tool to our MCP server written in Go with the official go-sdk');
    assert.equal(go.otherPages.get('python-mcp-server'), 'python');
    assert.equal(go.otherPages.get('kotlin-mcp-server'), 'kotlin');
    assert.ok(!go.otherPages.has('go') && !go.otherPages.has('go-mcp-server'));
    const java = await sent('awesome-copilot', 'upgrade a codebase from Java 17 to Java 21 and adopt virtual threads');
    assert.deepEqual(
      java.pages.filter((p) => p.includes('upgrade')),
      ['java-17-to-java-21-upgrade'],
    );
  });

  it('finds nothing for a tool or a stack no page covers, even where one page of a narrower topic is in its language', async () => {
    const ktor = await sent('awesome-copilot', 'a Ktor route in our Kotlin service');
    assert.deepEqual(ktor, { pages: [], nothing: true });
    const s = subjectsOf('awesome-copilot', 'a Ktor route in our Kotlin service');
    assert.deepEqual([s.forcedPages, s.narrowerPages.get('kotlin-mcp-server')], [[], 'mcp']);
    const django = subjectsOf('awesome-copilot', 'write a Django view with the ORM and a migration');
    assert.deepEqual(django.unknown, ['Django']);
    assert.deepEqual(await sent('awesome-copilot', 'write a Django view with the ORM and a migration'), {
      pages: [],
      nothing: true,
    });
    // The library writes React, never React Native: a name it does not cover.
    assert.deepEqual(subjectsOf('awesome-copilot', 'build a React Native screen with navigation').unknown, [
      'React Native',
    ]);
    assert.equal((await sent('awesome-copilot', 'build a React Native screen with navigation')).nothing, true);
    assert.equal((await sent('instructa-ai-prompts', 'a SolidJS component with signals')).nothing, true);
  });
});
