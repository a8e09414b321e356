import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { documentId, sha256Hex } from '../../../../server/src/engine/chunking/ids';
import type { Doc, LibraryProps } from '../../../../server/src/engine/model';
import {
  extractPageLinks,
  isExpired,
  parseFolderDescription,
  parsePack,
  readLibrary,
  readLibraryPage,
} from '../../../../server/src/engine/sources/library';
import { type FileSource, MemoryFileSource } from '../../../../server/src/engine/workspace/fileSource';

/** Writes `files` under a fresh temp folder and reads every file back from disk. */
function workspaceOnDisk(files: Record<string, string>): FileSource {
  const root = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'wsctx-library-'));
  for (const [path, text] of Object.entries(files)) {
    fs.mkdirSync(nodePath.dirname(nodePath.join(root, path)), { recursive: true });
    fs.writeFileSync(nodePath.join(root, path), text);
  }
  const read = new Map<string, string>();
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const abs = nodePath.join(entry.parentPath, entry.name);
    read.set(nodePath.relative(root, abs).split(nodePath.sep).join('/'), fs.readFileSync(abs, 'utf8'));
  }
  fs.rmSync(root, { recursive: true, force: true });
  return new MemoryFileSource(read);
}

const BATTLECARD = [
  '---', // 1
  'title: Acme battlecard', // 2
  'type: Table', // 3
  'summary: How we win against Acme.', // 4
  'good_for:', // 5
  '  - answering a competitor question', // 6
  '  - writing a sales email', // 7
  'questions: [Why are we cheaper?]', // 8
  'tags: [Sales, competitors, sales]', // 9
  'always_include: true', // 10
  'read_whole: false', // 11
  'status: draft', // 12
  'expires: 2025-06-30', // 13
  'usage: Quote prices only from the table.', // 14
  'file: ../pricing.xlsx', // 15
  '---', // 16
  '# Acme', // 17
  'See [[Pricing]] and [[Voice guide|our voice]], then [[Pricing]] again.', // 18
  'Inline `[[Not a link]]` is code.', // 19
  '```', // 20
  '[[Also not a link]]', // 21
  '```', // 22
  '## Objections', // 23
  'Use [[ Objection handling ]].', // 24
].join('\n');

const FILES: Record<string, string> = {
  '.context/sales/battlecards/acme.md': BATTLECARD,
  '.context/sales/pricing.xlsx': 'binary-ish',
  '.context/sales/folder.yaml': 'description: Sales material\ngood_for: [preparing a sales call]\nprofile: catalog\n',
  '.context/style.md': '# Style\nShort sentences.\n',
  '.context/instructions.md': 'Always cite the runbook.\n',
  '.context/packs/release.yaml': [
    'name: Release',
    'description: Shipping a release',
    'good_for: [cutting a release, writing release notes]',
    'always: [Release checklist]',
    'when_relevant:',
    '  - Rollback guide',
    '  - .context/ops/rollback.md',
  ].join('\n'),
  '.context/packs/oncall.yml': 'always: Paging policy\n',
  'AGENTS.md': '# Agent guide\nRun npm test.\n',
  'services/billing/AGENTS.md': 'Use the billing fixtures.\n',
  'CLAUDE.md': '# Claude notes\n',
  '.github/copilot-instructions.md': '# Copilot\nPrefer small diffs.\n',
  '.github/instructions/typescript.instructions.md':
    '---\napplyTo: **/*.ts,**/*.tsx\ndescription: TypeScript conventions\n---\nUse strict mode.\n',
  '.cursor/rules/api.mdc':
    '---\ndescription: API rules\nglobs: *.api.ts, src/api/**\nalwaysApply: true\n---\n# API\nVersion every route.\n',
  'README.md': '# Not in the library\n',
  'docs/agents.md': '# Not an AGENTS.md\n',
};

function props(doc: Doc | null | undefined): LibraryProps {
  assert.ok(doc?.library, 'expected a library document');
  return doc.library;
}

describe('sources/library', () => {
  it('reads a .context page with every front matter field', () => {
    const files = workspaceOnDisk(FILES);
    const { doc, problems } = readLibraryPage({
      path: '.context/sales/battlecards/acme.md',
      text: BATTLECARD,
      folder: 'ws',
      exists: (path) => files.has(path),
    });
    assert.deepEqual(problems, []);
    assert.ok(doc);
    assert.equal(doc.id, documentId('.context/sales/battlecards/acme.md'));
    assert.equal(doc.digest, sha256Hex(BATTLECARD));
    assert.equal(doc.sourceKind, 'library');
    assert.equal(doc.format, 'context-page');
    assert.equal(doc.title, 'Acme battlecard');
    assert.deepEqual(doc.entityRefs, []);
    assert.deepEqual(props(doc), {
      type: 'table',
      summary: 'How we win against Acme.',
      goodFor: ['answering a competitor question', 'writing a sales email'],
      questions: ['Why are we cheaper?'],
      tags: ['sales', 'competitors'],
      alwaysInclude: true,
      readWhole: false,
      status: 'draft',
      expires: '2025-06-30',
      usage: 'Quote prices only from the table.',
      file: '.context/sales/pricing.xlsx',
      links: ['Pricing', 'Voice guide', 'Objection handling'],
      namespace: 'sales',
    });
    assert.deepEqual(
      doc.sections.map((s) => [s.headingPath, s.startLine, s.endLine]),
      [
        [['Acme'], 17, 22],
        [['Acme', 'Objections'], 23, 24],
      ],
    );
  });

  it('reads every instruction format with its origin, type and globs', async () => {
    const library = await readLibrary(workspaceOnDisk(FILES), { folder: 'ws' });
    assert.deepEqual(
      library.docs.map((d) => [d.path, d.format, d.title, d.library?.type, d.library?.namespace]),
      [
        ['.context/instructions.md', 'context-page', 'Instructions', 'instructions', ''],
        ['.context/sales/battlecards/acme.md', 'context-page', 'Acme battlecard', 'table', 'sales'],
        ['.context/style.md', 'context-page', 'Style', undefined, ''],
        ['.cursor/rules/api.mdc', 'cursor-mdc', 'API', 'instructions', ''],
        ['.github/copilot-instructions.md', 'copilot-instructions', 'Copilot', 'instructions', ''],
        [
          '.github/instructions/typescript.instructions.md',
          'instructions-md',
          'Typescript instructions',
          'instructions',
          '',
        ],
        ['AGENTS.md', 'agents-md', 'Agent guide', 'instructions', ''],
        ['CLAUDE.md', 'claude-md', 'Claude notes', 'instructions', ''],
        ['services/billing/AGENTS.md', 'agents-md', 'AGENTS', 'instructions', ''],
      ],
    );
    assert.ok(library.docs.every((d) => d.folder === 'ws' && d.sourceKind === 'library'));
    const byPath = new Map(library.docs.map((d) => [d.path, d]));

    const copilot = props(byPath.get('.github/instructions/typescript.instructions.md'));
    assert.deepEqual(copilot.applyTo, ['**/*.ts', '**/*.tsx']);
    assert.equal(copilot.summary, 'TypeScript conventions');
    assert.equal(copilot.alwaysApply, undefined);

    const cursor = props(byPath.get('.cursor/rules/api.mdc'));
    assert.deepEqual(cursor.applyTo, ['*.api.ts', 'src/api/**']);
    assert.equal(cursor.alwaysApply, true);
    assert.equal(cursor.summary, 'API rules');
    assert.deepEqual(byPath.get('.cursor/rules/api.mdc')?.frontMatter, {
      description: 'API rules',
      globs: '*.api.ts, src/api/**',
      alwaysApply: true,
    });

    const agents = props(byPath.get('AGENTS.md'));
    assert.deepEqual(agents, {
      type: 'instructions',
      goodFor: [],
      questions: [],
      tags: [],
      alwaysInclude: false,
      status: 'published',
      links: [],
      namespace: '',
    });
    assert.deepEqual(library.problems, []);
  });

  it('reads folder descriptions and packs', async () => {
    const library = await readLibrary(workspaceOnDisk(FILES));
    assert.deepEqual(library.folders, [
      {
        path: '.context/sales/folder.yaml',
        folder: '.context/sales',
        namespace: 'sales',
        description: 'Sales material',
        goodFor: ['preparing a sales call'],
        profile: 'catalog',
      },
    ]);
    assert.deepEqual(library.packs, [
      { path: '.context/packs/oncall.yml', name: 'oncall', goodFor: [], always: ['Paging policy'], whenRelevant: [] },
      {
        path: '.context/packs/release.yaml',
        name: 'Release',
        description: 'Shipping a release',
        goodFor: ['cutting a release', 'writing release notes'],
        always: ['Release checklist'],
        whenRelevant: ['Rollback guide', '.context/ops/rollback.md'],
      },
    ]);
  });

  it('reports fields of the wrong type by name and keeps the rest of the page', () => {
    const text = [
      '---', // 1
      'title: Refund policy', // 2
      'summary: Who may refund.', // 3
      'tags: {a: 1}', // 4
      'always_include: maybe', // 5
      'status: archived', // 6
      'expires: 2025-02-30', // 7
      'good_for: [ok, {x: 1}]', // 8
      'file: missing.pdf', // 9
      '---', // 10
      'Body',
    ].join('\n');
    const { doc, problems } = readLibraryPage({ path: '.context/policies/refunds.md', text, exists: () => false });
    assert.deepEqual(
      problems.map((p) => [p.line, p.code, p.message]),
      [
        [8, 'library.invalid-field', "Front matter field 'good_for' must contain only text items (1 ignored)."],
        [4, 'library.invalid-field', "Front matter field 'tags' must be a list of text items."],
        [5, 'library.invalid-field', "Front matter field 'always_include' must be true or false."],
        [
          6,
          'library.invalid-field',
          "Front matter field 'status' must be one of 'published', 'draft' (got 'archived').",
        ],
        [
          7,
          'library.invalid-field',
          'Front matter field \'expires\' must be a date written YYYY-MM-DD (got "2025-02-30").',
        ],
        [
          9,
          'library.invalid-field',
          "Front matter field 'file' names '.context/policies/missing.pdf', which does not exist.",
        ],
      ],
    );
    assert.equal(doc?.title, 'Refund policy');
    assert.deepEqual(props(doc), {
      summary: 'Who may refund.',
      goodFor: ['ok'],
      questions: [],
      tags: [],
      alwaysInclude: false,
      status: 'published',
      links: [],
      // Not served as an attachment, but kept so get_file can say why (see getFile.test.ts).
      missingFile: '.context/policies/missing.pdf',
      namespace: 'policies',
    });
  });

  it('reports bad folder.yaml and pack fields and invalid YAML', () => {
    const folder = parseFolderDescription('.context/ops/folder.yaml', 'description: Ops\nprofile: wide\n');
    assert.equal(folder.folder.description, 'Ops');
    assert.equal(folder.folder.profile, undefined);
    assert.deepEqual(
      folder.problems.map((p) => [p.line, p.message]),
      [[2, "folder.yaml field 'profile' must be one of 'focused', 'catalog' (got 'wide')."]],
    );
    const pack = parsePack('.context/packs/x.yaml', 'name: X\nalways: {a: b}\n');
    assert.deepEqual(pack.pack?.always, []);
    assert.deepEqual(
      pack.problems.map((p) => [p.line, p.message]),
      [[2, "Pack field 'always' must be a list of text items."]],
    );
    const broken = parsePack('.context/packs/y.yaml', 'name: [\n');
    assert.equal(broken.pack, null);
    assert.deepEqual(
      broken.problems.map((p) => p.code),
      ['library.yaml'],
    );
  });

  it('parses expired and draft flags', () => {
    const page = (frontMatter: string) =>
      props(readLibraryPage({ path: '.context/a.md', text: `---\n${frontMatter}\n---\n# A\n` }).doc);
    const expiring = page('expires: 2025-06-30T12:00:00Z\nstatus: Draft');
    assert.equal(expiring.expires, '2025-06-30');
    assert.equal(expiring.status, 'draft');
    assert.equal(isExpired(expiring, '2025-06-30'), false);
    assert.equal(isExpired(expiring, '2025-07-01'), true);
    assert.equal(isExpired(expiring, new Date(Date.UTC(2026, 0, 1))), true);
    assert.equal(isExpired(page('status: published'), '2999-01-01'), false);
  });

  it('extracts [[links]] outside code only', () => {
    assert.deepEqual(extractPageLinks('[[A]] `[[B]]` [[C|c]]\n\n    [[D]]\n~~~\n[[E]]\n~~~\n[[]] [[ F ]] [[A]]'), [
      'A',
      'C',
      'F',
    ]);
  });

  it('ignores files outside the library', () => {
    assert.deepEqual(readLibraryPage({ path: 'docs/agents.md', text: '# x' }), { doc: null, problems: [] });
    assert.deepEqual(readLibraryPage({ path: 'README.md', text: '# x' }), { doc: null, problems: [] });
  });
});
