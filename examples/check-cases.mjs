#!/usr/bin/env node
// Checks examples/fernhill-cases.yaml against the example workspace examples/fernhill/.
//
// For every case: the expected file exists, the expected heading exists in it (a Markdown
// section's own heading, or a catalog entity's canonical ref), and the declared sourceKind fits
// the path. Then it compares words, the way the engine's lexical side sees them (lower-cased,
// identifiers split into parts, Porter-stemmed, digits left alone, stop words dropped):
//   - `words` cases must share at least one stem with the expected passage;
//   - `meaning` cases must share none with the passage's text, heading path, document title,
//     folder names, type and tags. Shared stems are printed so the case or the text can be fixed.
// Finally it prints a catalog summary (entities by kind, invalid entities, unresolved refs),
// which is where examples/README.md gets its counts.
//
// Run from the repository root: `node examples/check-cases.mjs`. Exit code 1 on any failure.
import { readFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stemmer } from 'stemmer';
import { parse, parseAllDocuments } from 'yaml';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, 'fernhill');
const WORKSPACE_FOLDER = 'fernhill';
const SOURCE_KINDS = ['catalog_entity', 'catalog_doc', 'repo_overview', 'epic_doc', 'library'];

// Deliberately short: a word left out here is compared, so this list can only make the meaning
// check stricter than an engine with a longer stop list, never looser.
const STOP = new Set(
  ('a an the and or but nor of to in on at by for with from as into onto over under ' +
    'is are was were be been being am it its this that these those ' +
    'i me my we us our you your he him his she her they them their').split(' '),
);

/** Content-word stems of a text, as a set. */
function stems(text) {
  const out = new Set();
  const spaced = text.replace(/([a-z])([A-Z])/g, '$1 $2');
  for (const raw of spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!raw || STOP.has(raw)) continue;
    out.add(/\d/.test(raw) ? raw : stemmer(raw));
  }
  return out;
}

// ------------------------------------------------------------------------------------------
// Markdown

function splitFrontMatter(text) {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!m) return { data: {}, body: text };
  return { data: parse(m[1]) ?? {}, body: text.slice(m[0].length) };
}

/** Sections at every heading (ATX and setext), each running to the next heading of any level. */
function markdownSections(body) {
  const lines = body.split(/\r?\n/);
  const heads = [];
  let fence = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (!fence) fence = f[1][0];
      else if (f[1][0] === fence) fence = null;
      continue;
    }
    if (fence) continue;
    const atx = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (atx) heads.push({ line: i, level: atx[1].length, text: atx[2], first: i });
    else if (i > 0 && lines[i - 1].trim() && /^\s{0,3}(=+|-+)\s*$/.test(line) && !/^\s*([-*]|\d+\.)\s/.test(lines[i - 1])) {
      heads.push({ line: i, level: line.trim()[0] === '=' ? 1 : 2, text: lines[i - 1].trim(), first: i - 1 });
    }
  }
  const sections = [];
  const stack = [];
  heads.forEach((h, k) => {
    while (stack.length && stack[stack.length - 1].level >= h.level) stack.pop();
    stack.push(h);
    const end = k + 1 < heads.length ? heads[k + 1].first : lines.length;
    sections.push({ headingPath: stack.map((s) => s.text), text: lines.slice(h.first, end).join('\n') });
  });
  return sections;
}

function markdownTitle(data, sections, path) {
  if (typeof data.title === 'string' && data.title.trim()) return data.title.trim();
  const h1 = sections.find((s) => s.headingPath.length === 1);
  return h1?.headingPath[0] ?? sections[0]?.headingPath.at(-1) ?? path.split('/').pop().replace(/\.[^.]+$/, '');
}

/** The mkdocs.yml above a docs page, if any: its site_name may become part of the title. */
function mkdocsSiteName(path) {
  for (let dir = dirname(path); dir !== '.' && dir !== ''; dir = dirname(dir)) {
    const file = join(root, dir, 'mkdocs.yml');
    if (existsSync(file)) return parse(readFileSync(file, 'utf8'))?.site_name ?? '';
  }
  return '';
}

// ------------------------------------------------------------------------------------------
// Catalog

function entityRef(e) {
  return `${String(e.kind).toLowerCase()}:${e.metadata?.namespace ?? 'default'}/${e.metadata?.name}`;
}

function catalogEntities(path) {
  const text = readFileSync(join(root, path), 'utf8');
  return parseAllDocuments(text)
    .map((doc) => ({ entity: doc.toJS(), text: text.slice(doc.range[0], doc.range[2]) }))
    .filter(({ entity }) => entity && entity.kind);
}

// ------------------------------------------------------------------------------------------

function kindOfPath(path, frontMatter) {
  const base = path.split('/').pop();
  if (/\.ya?ml$/.test(path)) return 'catalog_entity';
  if (path.startsWith('.context/') || ['AGENTS.md', 'CLAUDE.md'].includes(base) || path.startsWith('.github/') || path.startsWith('.cursor/')) return 'library';
  if (/(^|\/)epics\//.test(path) || base.endsWith('.epic.md') || frontMatter.kind === 'epic') return 'epic_doc';
  if (base.toLowerCase() === 'overview.md') return 'repo_overview';
  if (mkdocsSiteName(path)) return 'catalog_doc';
  return 'unknown';
}

/** The expected passage and everything its matching text includes, or an error message. */
function findPassage(expect) {
  const file = join(root, expect.path);
  if (!existsSync(file)) return { error: `file not found: ${expect.path}` };
  const folders = [WORKSPACE_FOLDER, ...dirname(expect.path).split('/').filter((p) => p !== '.')];
  if (/\.ya?ml$/.test(expect.path)) {
    const hit = catalogEntities(expect.path).filter(({ entity }) => entityRef(entity).toLowerCase() === String(expect.heading).toLowerCase());
    if (hit.length !== 1) return { error: `${hit.length} entities ${expect.heading} in ${expect.path}` };
    const { entity, text } = hit[0];
    return {
      kind: 'catalog_entity',
      material: [text, entityRef(entity), entity.metadata.title ?? '', (entity.metadata.tags ?? []).join(' '), String(entity.spec?.type ?? ''), folders.join(' ')],
    };
  }
  const { data, body } = splitFrontMatter(readFileSync(file, 'utf8'));
  const sections = markdownSections(body);
  const hit = sections.filter((s) => s.headingPath.at(-1) === expect.heading);
  if (hit.length !== 1) return { error: `${hit.length} sections headed "${expect.heading}" in ${expect.path}` };
  const tags = Array.isArray(data.tags) ? data.tags.join(' ') : '';
  return {
    kind: kindOfPath(expect.path, data),
    material: [hit[0].text, hit[0].headingPath.join(' '), markdownTitle(data, sections, expect.path), mkdocsSiteName(expect.path), tags, String(data.type ?? ''), folders.join(' ')],
  };
}

function checkCases() {
  const cases = parse(readFileSync(join(here, 'fernhill-cases.yaml'), 'utf8'));
  const failures = [];
  const seen = new Set();
  const tally = {};
  for (const c of cases) {
    const where = `case ${c.id ?? '(no id)'}`;
    if (!c.id || seen.has(c.id)) failures.push(`${where}: missing or duplicate id`);
    seen.add(c.id);
    if (!['words', 'meaning'].includes(c.kind)) failures.push(`${where}: kind must be words or meaning`);
    if (!SOURCE_KINDS.includes(c.sourceKind)) failures.push(`${where}: unknown sourceKind ${c.sourceKind}`);
    if (![1, 3, 5].includes(c.within)) failures.push(`${where}: within must be 1, 3 or 5`);
    if (!c.question || !c.expect?.path || !c.expect?.heading) { failures.push(`${where}: question, expect.path and expect.heading are required`); continue; }
    const passage = findPassage(c.expect);
    if (passage.error) { failures.push(`${where}: ${passage.error}`); continue; }
    if (passage.kind !== c.sourceKind) failures.push(`${where}: path looks like ${passage.kind}, case says ${c.sourceKind}`);
    const q = stems(c.question);
    const p = stems(passage.material.join('\n'));
    const shared = [...q].filter((s) => p.has(s));
    if (c.kind === 'meaning' && shared.length) failures.push(`${where}: meaning case shares ${shared.join(', ')}`);
    if (c.kind === 'words' && !shared.length) failures.push(`${where}: words case shares no word with its passage`);
    const key = `${c.kind} ${c.sourceKind}`;
    tally[key] = (tally[key] ?? 0) + 1;
  }
  console.log(`${cases.length} cases`);
  for (const [k, n] of Object.entries(tally).sort()) console.log(`  ${k.padEnd(24)} ${n}`);
  return failures;
}

function catalogSummary() {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const abs = join(dir, name);
      if (statSync(abs).isDirectory()) { if (!['node_modules', 'build'].includes(name)) walk(abs); }
      else if (/^catalog-info\.ya?ml$/.test(name) || abs.includes(`${sep}catalog${sep}`) || abs.endsWith(join('org', 'people.yaml')) || abs.endsWith('template.yaml')) files.push(relative(root, abs).split(sep).join('/'));
    }
  };
  walk(root);
  const counts = {};
  const invalid = [];
  const keys = new Set();
  const all = files.flatMap((f) => catalogEntities(f).map((x) => ({ ...x, path: f })));
  for (const { entity, path } of all) {
    if (!/^[a-zA-Z0-9]+([-_.][a-zA-Z0-9]+)*$/.test(String(entity.metadata?.name)) || String(entity.metadata?.name).length > 63) { invalid.push(`${path}: ${entity.metadata?.name}`); continue; }
    counts[entity.kind] = (counts[entity.kind] ?? 0) + 1;
    keys.add(entityRef(entity).toLowerCase());
  }
  const defaults = { owner: 'group', system: 'system', domain: 'domain', subcomponentOf: 'component', providesApis: 'api', consumesApis: 'api', dependsOn: null, dependencyOf: null, parent: 'group', children: 'group', members: 'user', memberOf: 'group' };
  const unresolved = [];
  for (const { entity } of all) {
    for (const [field, kind] of Object.entries(defaults)) {
      for (const ref of [entity.spec?.[field] ?? []].flat()) {
        const m = /^(?:([^:/]+):)?(?:([^:/]+)\/)?(.+)$/.exec(String(ref));
        const key = `${(m[1] ?? kind ?? '?').toLowerCase()}:${(m[2] ?? 'default').toLowerCase()}/${m[3].toLowerCase()}`;
        if (!keys.has(key)) unresolved.push(`${entityRef(entity)} ${field} -> ${key}`);
      }
    }
  }
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  console.log(`\ncatalog: ${total} valid entities in ${files.length} files`);
  for (const [k, n] of Object.entries(counts).sort()) console.log(`  ${k.padEnd(10)} ${n}`);
  console.log(`  invalid    ${invalid.length}  ${invalid.join('; ')}`);
  console.log(`  unresolved ${unresolved.length}  ${unresolved.join('; ')}`);
  const failures = [];
  if (invalid.length !== 1) failures.push(`catalog: expected exactly 1 invalid entity, found ${invalid.length}`);
  if (unresolved.length !== 1) failures.push(`catalog: expected exactly 1 unresolved ref, found ${unresolved.length}`);
  return failures;
}

const failures = [...checkCases(), ...catalogSummary()];
if (failures.length) {
  console.error(`\n${failures.length} problem(s):`);
  for (const f of failures) console.error(`  - ${f}`);
  process.exit(1);
}
console.log('\nall cases OK');
