/**
 * What the packed VSIX shows a user before anything runs: its README (the extension's page in
 * the Extensions view) and its CHANGELOG. Opens the archive scripts/package/vsix.mjs wrote and
 * reads them as VS Code will: the files the manifest names as the Details and Changelog assets.
 *
 *   npx mocha --no-config --node-option import=tsx test/e2e/vsixPackage.e2e.ts
 *
 * (after `node scripts/package/vsix.mjs`; E2E_VSIX and E2E_PROJECT as in extension.e2e.ts).
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { defaultVsixPath, repoRoot } from './paths';
import { readZip, type ZipArchive } from './vsixZip';

const vsixPath = process.env.E2E_VSIX ?? defaultVsixPath;
const projectDir = process.env.E2E_PROJECT ?? repoRoot;

describe('the packed VSIX: README and CHANGELOG', () => {
  let archive: ZipArchive = { names: [], read: () => undefined };
  before(() => {
    archive = readZip(vsixPath);
  });
  const text = (name: string) => {
    const file = archive.read(name);
    assert.ok(
      file,
      `${name} is not in ${vsixPath}; it holds ${archive.names.filter((f) => !f.includes('node_modules')).join(', ')}`,
    );
    return file.toString('utf8');
  };
  const assetPath = (type: string) =>
    new RegExp(`<Asset Type="${type.replace(/\./g, '\\.')}" Path="([^"]+)"`).exec(text('extension.vsixmanifest'))?.[1];

  it("shows the extension's own README for users, not the repository's developer README", () => {
    assert.equal(assetPath('Microsoft.VisualStudio.Services.Content.Details'), 'extension/readme.md');
    const readme = text('extension/readme.md');
    assert.equal(readme, readFileSync(path.join(projectDir, 'client', 'README.md'), 'utf8'));
    assert.notEqual(readme, readFileSync(path.join(projectDir, 'README.md'), 'utf8'));
    const headings = readme.split('\n').filter((l) => l.startsWith('## '));
    assert.deepEqual(headings, [
      '## Getting started',
      '## What the first open costs',
      '## Commands',
      '## Settings',
      '## Trust and safety',
      '## Other agents',
      '## When something looks wrong',
    ]);
    // What a user does first, and nothing a user of the extension would not run.
    assert.match(readme, /^# Workspace Context\n\nAnswers questions about your workspace/);
    assert.match(readme, /type \*\*@context\*\* and your question/);
    assert.match(readme, /\*indexing n of N\*.*\n.*\*embedding n of N, about M min left\*/);
    assert.doesNotMatch(readme, /npm (ci|test|run)|esbuild|mocha|npm run e2e/);
    // Only one README at the extension's root: vsce's readme.md.
    assert.deepEqual(
      archive.names.filter((f) => /^extension\/readme\.md$/i.test(f)),
      ['extension/readme.md'],
    );
  });

  it('ships the CHANGELOG, with an entry for the packed version', () => {
    assert.equal(assetPath('Microsoft.VisualStudio.Services.Content.Changelog'), 'extension/changelog.md');
    const changelog = text('extension/changelog.md');
    assert.equal(changelog, readFileSync(path.join(projectDir, 'CHANGELOG.md'), 'utf8'));
    const { version } = JSON.parse(text('extension/package.json')) as { version: string };
    assert.match(changelog, new RegExp(`^## ${version.replace(/\./g, '\\.')}\\b`, 'm'));
  });
});
