/**
 * A deterministic, seeded generator of workspaces for the bench.
 *
 *   npx tsx bench/generate.ts --size 10k [--seed 1] [--git] [--out DIR]
 *
 * Layout of a generated workspace (a single workspace folder):
 * - `org/`: a repository holding the org chart: `catalog-info.yaml` (a Location and the Domains),
 *   `catalog/groups.yaml` (company > departments > teams) and `catalog/users.yaml`;
 * - `<subject>-<role>-<n>/`: repositories, each with `catalog-info.yaml` (its System, 3-8
 *   Components, 1-3 APIs, 1-3 Resources, related across repositories), `overview.md`, a TechDocs
 *   site per component (`services/<name>/mkdocs.yml` + `docs/`), and 1-3 `epics/*.md`;
 * - `.context/`: the library (rules, guides, reference, templates, process), plus `AGENTS.md`.
 * Repositories are added until the predicted section count reaches the target, so a size is
 * approximate; the engine's own count is what the bench reports.
 *
 * Same seed and size -> byte-identical files (the test checks digests). With `git`, every
 * repository is a git repository whose files arrive in back-dated commits (see gitHistory.ts).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { epic, library, overview, techDocs, type GeneratedFile } from './generateDocs';
import { commitRepositories, type RepoCommitPlan } from './gitHistory';
import { capitalise, makeTopic, Prose, type Topic } from './prose';
import { Random } from './random';

/** Named sizes, in target sections. */
export const SIZES: Readonly<Record<string, number>> = Object.freeze({ '1k': 1_000, '10k': 10_000, '100k': 100_000 });

export interface GenerateOptions {
  /** An existing, empty directory to write into. */
  dir: string;
  /** Target number of sections (approximate; see the module comment). At least 100. */
  sections: number;
  /** Default 1. */
  seed?: number;
  /** Make each repository a git repository with back-dated commits. Default false. */
  git?: boolean;
  /** Commits per repository in git mode, 1-3 (default 3 below 50,000 target sections, else 1). */
  commitsPerRepo?: number;
}

export interface GeneratedWorkspace {
  dir: string;
  seed: number;
  /** Sections the generator wrote (one per Markdown heading and per catalog entity). */
  predictedSections: number;
  files: number;
  bytes: number;
  repositories: number;
  entitiesByKind: Record<string, number>;
  /** A sample of entity refs, for tool inputs: every kind, at most 50 of each. */
  sampleRefs: string[];
  /** Workspace-relative path of one TechDocs page and one catalog file (the update probes). */
  probes: { docsPage: string; catalogFile: string };
  /** Milliseconds spent writing files, and creating git history (0 without git). */
  writeMs: number;
  gitMs: number;
}

/** Draws of a single-word repository subject before it is made of two words. */
const MAX_SUBJECT_DRAWS = 1000;

const ROLES = ['worker', 'api', 'service', 'web', 'scheduler', 'gateway', 'exporter', 'sync', 'indexer', 'cli'];
const REPO_ROLES = ['platform', 'services', 'core', 'infra', 'apps', 'tools'];
const RESOURCE_TYPES: readonly (readonly [string, string])[] = [
  ['db', 'database'],
  ['queue', 'queue'],
  ['bucket', 's3-bucket'],
  ['cache', 'cache'],
];
const API_TYPES = ['openapi', 'grpc', 'asyncapi', 'graphql'];
const SYLLABLES = [
  'an',
  'ka',
  'mi',
  'lo',
  'ren',
  'sa',
  'to',
  'vik',
  'el',
  'na',
  'jo',
  'ri',
  'da',
  'ne',
  'ola',
  'bo',
  'ha',
  'li',
];

interface Repo {
  name: string;
  team: string;
  topic: Topic;
  components: string[];
  apis: string[];
  resources: string[];
}

/** Writes a workspace into `options.dir`; synchronous, as it is the only thing running. */
export function generateWorkspace(options: GenerateOptions): GeneratedWorkspace {
  const seed = options.seed ?? 1;
  const target = Math.max(100, options.sections);
  const root = new Random(seed);
  const started = performance.now();
  const files: GeneratedFile[] = [];
  const entitiesByKind: Record<string, number> = {};
  const refsByKind = new Map<string, string[]>();
  const entity = (kind: string, name: string, yaml: string): string => {
    entitiesByKind[kind] = (entitiesByKind[kind] ?? 0) + 1;
    const ref = `${kind.toLowerCase()}:default/${name}`;
    const list = refsByKind.get(kind) ?? [];
    if (list.length < 50) list.push(ref);
    refsByKind.set(kind, list);
    return yaml;
  };
  let sections = 0;

  // The org chart first: every repository needs an owning team.
  const orgRandom = root.fork('org');
  const orgProse = new Prose(orgRandom.fork('prose'));
  const orgTopic = makeTopic(orgRandom, 'engineering');
  const teamCount = Math.max(3, Math.round(target / 1_500));
  const departments = ['product', 'platform', 'data'].map((d) => `${d}-engineering`);
  const teams = uniqueNames(teamCount, () => `${orgProse.rareWord()}-team`);
  const users = uniqueNames(teamCount * 4, () => `${personName(orgRandom)}.${personName(orgRandom)}`);
  const domains = uniqueNames(Math.max(3, Math.min(30, Math.round(target / 5_000))), () => orgProse.rareWord());
  const groupDocs = [
    entity('Group', 'company', group('company', 'organization', orgProse, orgTopic, { children: departments })),
    ...departments.map((d) =>
      entity(
        'Group',
        d,
        group(d, 'department', orgProse, orgTopic, {
          parent: 'company',
          children: teams.filter((_, i) => i % 3 === departments.indexOf(d)),
        }),
      ),
    ),
    ...teams.map((t, i) => entity('Group', t, group(t, 'team', orgProse, orgTopic, { parent: departments[i % 3] }))),
  ];
  const userDocs = users.map((u, i) =>
    entity(
      'User',
      u,
      [
        'apiVersion: backstage.io/v1alpha1',
        'kind: User',
        'metadata:',
        `  name: ${u}`,
        'spec:',
        '  profile:',
        `    displayName: ${u.split('.').map(capitalise).join(' ')}`,
        `    email: ${u}@example.com`,
        `  memberOf: [${teams[i % teams.length]}]`,
      ].join('\n'),
    ),
  );
  const domainDocs = domains.map((d, i) =>
    entity(
      'Domain',
      d,
      envelope(
        'Domain',
        d,
        capitalise(d),
        orgProse.sentence(orgTopic, 8, 20),
        [d],
        [`  owner: group:default/${departments[i % 3]}`],
      ),
    ),
  );
  const location = entity(
    'Location',
    'org-chart',
    [
      'apiVersion: backstage.io/v1alpha1',
      'kind: Location',
      'metadata:',
      '  name: org-chart',
      'spec:',
      '  type: file',
      '  targets:',
      '    - ./catalog/groups.yaml',
      '    - ./catalog/users.yaml',
    ].join('\n'),
  );
  files.push({ path: 'org/catalog-info.yaml', content: `${[location, ...domainDocs].join('\n---\n')}\n` });
  files.push({ path: 'org/catalog/groups.yaml', content: `${groupDocs.join('\n---\n')}\n` });
  files.push({ path: 'org/catalog/users.yaml', content: `${userDocs.join('\n---\n')}\n` });
  sections += 1 + domains.length + groupDocs.length + userDocs.length;
  const orgOverview = overview(orgProse, orgRandom, orgTopic, 'org', 'Org chart');
  files.push(...orgOverview.files);
  sections += orgOverview.sections;

  // The library, sized with the workspace (about 2% of its sections).
  const libRandom = root.fork('library');
  const libTopics = ['security', 'release', 'incident', 'data', 'testing'].map((s) => makeTopic(libRandom, s));
  const lib = library(new Prose(libRandom.fork('prose')), libRandom, libTopics, Math.max(8, Math.round(target / 250)));
  files.push(...lib.files);
  sections += lib.sections;
  files.push({
    path: 'AGENTS.md',
    content: `# Agent notes\n\n${new Prose(libRandom.fork('agents')).body(libTopics[0], 120)}\n`,
  });
  sections += 1;

  // Repositories until the target is reached.
  const repos: Repo[] = [];
  const commitPlans: RepoCommitPlan[] = [];
  const usedNames = new Set<string>();
  let serial = 0;
  const nextName = (subject: string, role: string): string => {
    serial += 1 + ((serial * 7919) % 3); // gaps, so numbers do not read as a counter
    return `${subject}-${String(serial).padStart(4, '0')}-${role}`;
  };
  while (sections < target) {
    const r = repos.length;
    const random = root.fork(`repo-${r}`);
    const prose = new Prose(random.fork('prose'));
    let subject = prose.rareWord();
    for (let draws = 1; usedNames.has(subject); draws++) {
      // Under 3,000 words to draw from: past about 2,000 repositories (some 300k sections) a
      // fresh single word takes ever more draws, then none is left, so the subject becomes two.
      subject = draws < MAX_SUBJECT_DRAWS ? prose.rareWord() : `${prose.rareWord()}${prose.rareWord()}`;
    }
    usedNames.add(subject);
    const name = `${subject}-${random.pick(REPO_ROLES)}-${r}`;
    const team = teams[r % teams.length];
    const components = Array.from({ length: random.int(3, 8) }, () => nextName(subject, random.pick(ROLES)));
    const apis = Array.from({ length: random.int(1, 3) }, () => nextName(subject, 'api'));
    const resourceTypes = Array.from({ length: random.int(1, 3) }, () => random.pick(RESOURCE_TYPES));
    const resources = resourceTypes.map(([suffix]) => nextName(subject, suffix));
    const topic = makeTopic(random, subject, [...components, ...apis, ...resources]);
    const repo: Repo = { name, team, topic, components, apis, resources };
    const repoUrl = `https://git.example.com/acme/${name}`;

    const docs: string[] = [];
    docs.push(
      entity(
        'System',
        name,
        envelope(
          'System',
          name,
          capitalise(name.replace(/-/g, ' ')),
          prose.sentence(topic, 10, 24),
          topic.words.slice(0, 3),
          [`  owner: group:default/${team}`, `  domain: ${domains[r % domains.length]}`],
        ),
      ),
    );
    for (const api of apis) {
      const type = random.pick(API_TYPES);
      const definition = [
        '  definition: |',
        `    # ${type} definition of ${api}`,
        ...Array.from({ length: random.int(2, 5) }, () => `    ${prose.rareWord()}: ${prose.sentence(topic, 4, 9)}`),
      ];
      docs.push(
        entity(
          'API',
          api,
          envelope('API', api, undefined, prose.sentence(topic, 8, 20), random.sample(topic.words, 2), [
            `  type: ${type}`,
            `  lifecycle: production`,
            `  owner: group:default/${team}`,
            `  system: ${name}`,
            ...definition,
          ]),
        ),
      );
    }
    for (const [i, res] of resources.entries()) {
      docs.push(
        entity(
          'Resource',
          res,
          envelope('Resource', res, undefined, prose.sentence(topic, 8, 20), random.sample(topic.words, 2), [
            `  type: ${resourceTypes[i][1]}`,
            `  owner: group:default/${team}`,
            `  system: ${name}`,
          ]),
        ),
      );
    }
    for (const [i, comp] of components.entries()) {
      const spec = [
        `  type: ${i === 0 && random.chance(0.3) ? 'website' : random.chance(0.15) ? 'library' : 'service'}`,
        `  lifecycle: ${random.pick(['production', 'production', 'production', 'experimental', 'deprecated'])}`,
        `  owner: group:default/${team}`,
        `  system: ${name}`,
      ];
      const depends = [...random.sample(resources, random.int(0, 2)).map((x) => `resource:default/${x}`)];
      if (repos.length > 0) {
        for (const other of random.sample(repos, random.int(0, 2)))
          depends.push(`component:default/${random.pick(other.components)}`);
      }
      if (random.chance(0.01)) depends.push(`component:default/${subject}-retired-${random.int(1, 99)}`); // dangling, as real catalogs have
      if (depends.length) spec.push('  dependsOn:', ...depends.map((d) => `    - ${d}`));
      if (i === 0) spec.push(`  providesApis: [${apis.join(', ')}]`);
      const consumed = repos.length > 0 ? random.sample(repos, random.int(0, 2)).map((o) => random.pick(o.apis)) : [];
      if (consumed.length) spec.push(`  consumesApis: [${consumed.join(', ')}]`);
      if (i > 0 && random.chance(0.1)) spec.push(`  subcomponentOf: ${components[0]}`);
      const annotations = [
        `    backstage.io/techdocs-ref: dir:./services/${comp}`,
        `    github.com/project-slug: acme/${name}`,
      ];
      docs.push(
        entity(
          'Component',
          comp,
          envelope(
            'Component',
            comp,
            capitalise(comp.replace(/-/g, ' ')),
            `${prose.sentence(topic, 10, 30)} ${prose.sentence(topic)}`,
            random.sample(topic.words, 3),
            spec,
            annotations,
          ),
        ),
      );
    }
    const repoFiles: GeneratedFile[] = [{ path: `${name}/catalog-info.yaml`, content: `${docs.join('\n---\n')}\n` }];
    sections += docs.length;
    const ov = overview(prose, random, topic, name, capitalise(name.replace(/-/g, ' ')));
    repoFiles.push(...ov.files);
    sections += ov.sections;
    const docFiles: GeneratedFile[] = [];
    for (const comp of components) {
      const site = techDocs(prose, random, topic, `${name}/services/${comp}`, comp, repoUrl);
      docFiles.push(...site.files);
      sections += site.sections;
    }
    const epicFiles: GeneratedFile[] = [];
    for (let e = 0, n = random.int(1, 3); e < n; e++) {
      const refs = random.sample(components, random.int(1, 3)).map((c) => `component:default/${c}`);
      const spec = epic(prose, random, topic, name, `group:default/${team}`, refs, e + 1);
      epicFiles.push(...spec.files);
      sections += spec.sections;
    }
    files.push(...repoFiles, ...docFiles, ...epicFiles);
    commitPlans.push({
      dir: name,
      seedDays: random.int(0, 999),
      groups: [repoFiles.map((f) => f.path), docFiles.map((f) => f.path), epicFiles.map((f) => f.path)],
    });
    repos.push(repo);
  }

  let bytes = 0;
  const made = new Set<string>();
  for (const file of files) {
    const abs = path.join(options.dir, file.path);
    const parent = path.dirname(abs);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    writeFileSync(abs, file.content);
    bytes += Buffer.byteLength(file.content);
  }
  const writeMs = performance.now() - started;
  let gitMs = 0;
  if (options.git) {
    const t = performance.now();
    const orgPlan: RepoCommitPlan = {
      dir: 'org',
      seedDays: 400,
      groups: [files.filter((f) => f.path.startsWith('org/')).map((f) => f.path)],
    };
    commitRepositories(options.dir, [orgPlan, ...commitPlans], options.commitsPerRepo ?? (target >= 50_000 ? 1 : 3));
    gitMs = performance.now() - t;
  }
  const first = repos[0];
  return {
    dir: options.dir,
    seed,
    predictedSections: sections,
    files: files.length,
    bytes,
    repositories: repos.length + 1,
    entitiesByKind,
    sampleRefs: [...refsByKind.values()].flat(),
    probes: {
      docsPage: files.find(
        (f) => f.path.startsWith(`${first.name}/services/`) && f.path.endsWith('/docs/architecture.md'),
      )!.path,
      catalogFile: `${first.name}/catalog-info.yaml`,
    },
    writeMs,
    gitMs,
  };
}

/** The first lines of an entity down to `spec:`, then `spec` lines as given. */
function envelope(
  kind: string,
  name: string,
  title: string | undefined,
  description: string,
  tags: readonly string[],
  spec: readonly string[],
  annotations: readonly string[] = [],
): string {
  const lines = ['apiVersion: backstage.io/v1alpha1', `kind: ${kind}`, 'metadata:', `  name: ${name}`];
  if (title) lines.push(`  title: ${title}`);
  lines.push('  description: >-', ...wrapIndented(description, '    '), `  tags: [${tags.join(', ')}]`);
  if (annotations.length) lines.push('  annotations:', ...annotations);
  lines.push('spec:', ...spec);
  return lines.join('\n');
}

function group(
  name: string,
  type: string,
  prose: Prose,
  topic: Topic,
  rel: { parent?: string; children?: readonly string[] },
): string {
  const spec = [
    `  type: ${type}`,
    '  profile:',
    `    displayName: ${capitalise(name.replace(/-/g, ' '))}`,
    `    email: ${name}@example.com`,
  ];
  if (rel.parent) spec.push(`  parent: ${rel.parent}`);
  spec.push(`  children: [${(rel.children ?? []).join(', ')}]`);
  return envelope('Group', name, capitalise(name.replace(/-/g, ' ')), prose.sentence(topic, 8, 18), [type], spec);
}

function wrapIndented(text: string, indent: string): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + word.length + 1 > 96) {
      out.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(indent + line);
  return out;
}

function personName(random: Random): string {
  return Array.from({ length: random.int(2, 3) }, () => random.pick(SYLLABLES)).join('');
}

function uniqueNames(n: number, make: () => string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (let guard = 0; out.length < n && guard < n * 50; guard++) {
    const name = make();
    if (!seen.has(name)) {
      seen.add(name);
      out.push(name);
    }
  }
  return out;
}

/** Parses `1k`, `10k`, `100k` or a plain number of sections. */
export function parseSize(size: string): number {
  const named = SIZES[size];
  if (named !== undefined) return named;
  // A number with an optional k (thousands) or m (millions): 250k, 1m.
  const n = Number(size.replace(/k$/i, '000').replace(/m$/i, '000000'));
  if (!Number.isInteger(n) || n < 100)
    throw new Error(`bench: --size must be 1k, 10k, 100k, 1m or a number of sections >= 100, got "${size}"`);
  return n;
}

function main(argv: readonly string[]): void {
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const sections = parseSize(arg('--size') ?? '1k');
  const dir = arg('--out') ?? mkdtempSync(path.join(os.tmpdir(), 'wsctx-bench-ws-'));
  mkdirSync(dir, { recursive: true });
  const result = generateWorkspace({ dir, sections, seed: Number(arg('--seed') ?? 1), git: argv.includes('--git') });
  const { sampleRefs, ...summary } = result;
  console.log(JSON.stringify({ ...summary, sampleRefs: sampleRefs.length }, null, 2));
}

if (require.main === module) main(process.argv.slice(2));
