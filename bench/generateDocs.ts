/**
 * The Markdown of generated workspaces: TechDocs sites, repository overviews, epics and the
 * `.context/` library. Each writer returns the files it made and how many sections they hold
 * (one per heading: every file starts with a top-level heading, so there is no preamble).
 */
import { capitalise, type Prose, type Topic } from './prose';
import type { Random } from './random';

/** A file to write: workspace-relative path and content. */
export interface GeneratedFile {
  path: string;
  content: string;
}

export interface GeneratedPart {
  files: GeneratedFile[];
  sections: number;
}

/** TechDocs page kinds: file name and title. The first is always written. */
const PAGE_KINDS: readonly (readonly [string, string])[] = [
  ['architecture.md', 'Architecture'],
  ['runbooks/deploy.md', 'Deploy and rollback'],
  ['runbooks/alerts.md', 'Alerts'],
  ['config.md', 'Configuration'],
  ['faq.md', 'FAQ'],
  ['operations.md', 'Operations'],
  ['troubleshooting.md', 'Troubleshooting'],
];

const OVERVIEW_HEADINGS = [
  'What lives here',
  'Running it locally',
  'Ownership and on-call',
  'How the parts fit',
  'Deploying',
  'Known gaps',
];
const EPIC_HEADINGS = ['Goal', 'Scope', 'Milestones', 'Risks', 'Open questions', 'Decisions'];

/** One Markdown document: `# title`, an intro, then `##` sections (some with a `###` below). */
function markdownDoc(
  prose: Prose,
  random: Random,
  topic: Topic,
  title: string,
  headings: readonly string[],
): { text: string; sections: number } {
  const parts = [`# ${title}`, prose.body(topic, prose.sectionLength())];
  let sections = 1;
  const used = new Set<string>();
  for (const heading of headings) {
    if (used.has(heading)) continue;
    used.add(heading);
    parts.push(`## ${heading}`, prose.body(topic, prose.sectionLength()));
    sections++;
    if (random.chance(0.15)) {
      parts.push(`### ${prose.heading(topic)}`, prose.body(topic, prose.sectionLength()));
      sections++;
    }
  }
  return { text: `${parts.join('\n\n')}\n`, sections };
}

function generatedHeadings(prose: Prose, random: Random, topic: Topic, min: number, max: number): string[] {
  return Array.from({ length: random.int(min, max) }, () => prose.heading(topic));
}

/** `mkdocs.yml` plus `docs/index.md` and 2-5 pages for the component at `dir`. */
export function techDocs(
  prose: Prose,
  random: Random,
  topic: Topic,
  dir: string,
  componentName: string,
  repoUrl: string,
): GeneratedPart {
  const pages = [PAGE_KINDS[0], ...random.sample(PAGE_KINDS.slice(1), random.int(1, 4))];
  const files: GeneratedFile[] = [];
  let sections = 0;
  const title = componentName.split('-').map(capitalise).join(' ');
  const index = markdownDoc(prose, random, topic, title, generatedHeadings(prose, random, topic, 1, 3));
  files.push({ path: `${dir}/docs/index.md`, content: index.text });
  sections += index.sections;
  for (const [file, pageTitle] of pages) {
    const headings =
      file === 'runbooks/alerts.md'
        ? Array.from(
            { length: random.int(2, 5) },
            () => `${title.replace(/ /g, '')}${capitalise(prose.rareWord())}${capitalise(prose.rareWord())}`,
          )
        : generatedHeadings(prose, random, topic, 2, 5);
    const page = markdownDoc(prose, random, topic, pageTitle, headings);
    files.push({ path: `${dir}/docs/${file}`, content: page.text });
    sections += page.sections;
  }
  const nav = [`  - Home: index.md`, ...pages.map(([file, pageTitle]) => `  - ${pageTitle}: ${file}`)];
  const mkdocs = [
    `site_name: ${title}`,
    `site_description: ${prose.sentence(topic, 6, 12)}`,
    `repo_url: ${repoUrl}`,
    'docs_dir: docs',
    '',
    'nav:',
    ...nav,
    '',
    'plugins:',
    '  - techdocs-core',
    '',
  ].join('\n');
  files.push({ path: `${dir}/mkdocs.yml`, content: mkdocs });
  return { files, sections };
}

/** `overview.md` at a repository root. */
export function overview(prose: Prose, random: Random, topic: Topic, repo: string, title: string): GeneratedPart {
  const headings = random.sample(OVERVIEW_HEADINGS, random.int(3, OVERVIEW_HEADINGS.length));
  const doc = markdownDoc(prose, random, topic, title, headings);
  return { files: [{ path: `${repo}/overview.md`, content: doc.text }], sections: doc.sections };
}

/** An epic spec under `<repo>/epics/` with front matter naming the entities it touches. */
export function epic(
  prose: Prose,
  random: Random,
  topic: Topic,
  repo: string,
  owner: string,
  entityRefs: readonly string[],
  number: number,
): GeneratedPart {
  const title = capitalise(`${prose.rareWord()} ${random.pick(topic.words)} ${prose.rareWord()}`);
  const slug = `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${number}`;
  const front = [
    '---',
    `title: ${title}`,
    `status: ${random.pick(['planned', 'in-progress', 'done'])}`,
    `owner: ${owner}`,
    'entities:',
    ...entityRefs.map((ref) => `  - ${ref}`),
    `target: 2026-Q${random.int(1, 4)}`,
    '---',
    '',
  ].join('\n');
  const doc = markdownDoc(
    prose,
    random,
    topic,
    title,
    random.sample(EPIC_HEADINGS, random.int(3, EPIC_HEADINGS.length)),
  );
  return { files: [{ path: `${repo}/epics/${slug}.md`, content: front + doc.text }], sections: doc.sections };
}

/** Library folders: name, page type, folder profile. */
const LIBRARY_FOLDERS: readonly (readonly [string, string, string])[] = [
  ['rules', 'rule', 'focused'],
  ['guides', 'guide', 'focused'],
  ['reference', 'reference', 'catalog'],
  ['templates', 'template', 'focused'],
  ['process', 'process', 'focused'],
];

/**
 * The `.context/` library: `instructions.md`, one `folder.yaml` per folder, `pages` pages with
 * front matter (title, type, summary, tags, good_for), and two packs.
 */
export function library(prose: Prose, random: Random, topics: readonly Topic[], pages: number): GeneratedPart {
  const files: GeneratedFile[] = [];
  let sections = 0;
  const titles: string[][] = LIBRARY_FOLDERS.map(() => []);
  for (const [i, [folder, , profile]] of LIBRARY_FOLDERS.entries()) {
    const topic = topics[i % topics.length];
    const lines = [
      `description: ${prose.sentence(topic, 8, 14)}`,
      'good_for:',
      `  - ${prose.sentence(topic, 4, 8).slice(0, -1).toLowerCase()}`,
      `profile: ${profile}`,
      '',
    ];
    files.push({ path: `.context/${folder}/folder.yaml`, content: lines.join('\n') });
  }
  for (let p = 0; p < pages; p++) {
    const f = p % LIBRARY_FOLDERS.length;
    const [folder, type] = LIBRARY_FOLDERS[f];
    const topic = random.pick(topics);
    const title = capitalise(`${random.pick(topic.words)} ${prose.rareWord()} ${prose.rareWord()}`);
    titles[f].push(title);
    const slug = `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${p}`;
    const front = [
      '---',
      `title: ${title}`,
      `type: ${type}`,
      `summary: ${prose.sentence(topic, 8, 16)}`,
      `tags: [${random.sample(topic.words, 3).join(', ')}]`,
      'good_for:',
      `  - ${prose.sentence(topic, 4, 9).slice(0, -1).toLowerCase()}`,
      `  - ${prose.sentence(topic, 4, 9).slice(0, -1).toLowerCase()}`,
      '---',
      '',
    ].join('\n');
    const doc = markdownDoc(prose, random, topic, title, generatedHeadings(prose, random, topic, 1, 4));
    files.push({ path: `.context/${folder}/${slug}.md`, content: front + doc.text });
    sections += doc.sections;
  }
  const instructions = markdownDoc(prose, random, topics[0], 'Instructions for agents', [
    'Before you change code',
    'Where to look first',
  ]);
  files.push({ path: '.context/instructions.md', content: instructions.text });
  sections += instructions.sections;
  for (const [k, name] of ['service-change', 'incident-response'].entries()) {
    const always = titles[0].slice(k, k + 1);
    const relevant = titles[1 + k].slice(0, 3);
    const pack = [
      `name: ${name}`,
      `description: ${prose.sentence(topics[k % topics.length], 8, 14)}`,
      'always:',
      ...always.map((t) => `  - ${t}`),
      'when_relevant:',
      ...relevant.map((t) => `  - ${t}`),
      '',
    ].join('\n');
    files.push({ path: `.context/packs/${name}.yaml`, content: pack });
  }
  return { files, sections };
}
