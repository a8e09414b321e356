/**
 * mdBook's and GitBook's `SUMMARY.md`: the book's table of contents, a Markdown list of links
 * (https://rust-lang.github.io/mdBook/format/summary.html,
 * https://gitbook.com/docs/getting-started/git-sync/content-configuration). Its links, in order,
 * are the pages' order and their menu titles; part headings (`# Part`), separators and draft
 * chapters (`[Title]()`) name no page. Links are relative to SUMMARY.md's folder.
 *
 * Where it is: `SUMMARY.md` in the site's folder or a folder above it; `book.toml`'s `src`
 * (default `src`) names an mdBook's; `.gitbook.yaml`'s `root` and `structure.summary` a GitBook's.
 */
import { parseYamlMap } from '../../chunking/yamlMap';
import type { FileSource } from '../../workspace/fileSource';
import {
  addEntry,
  folderOf,
  foldersUp,
  inFolder,
  type IsNavFile,
  type NavReading,
  noReading,
  resolveRelative,
} from './navTypes';

const LINK = /\[((?:[^\]\\]|\\.)*)\]\(\s*<?([^)>\s]*)>?(?:\s+"[^"]*")?\s*\)/g;

/** The summary file that orders the site's pages, or null. Only names asked about are looked up. */
export async function findSummary(files: FileSource, isNavFile: IsNavFile, docsDir: string): Promise<string | null> {
  for (const dir of foldersUp(docsDir)) {
    const direct = inFolder(dir, 'SUMMARY.md');
    if (isNavFile(direct)) return direct;
    const book = inFolder(dir, 'book.toml');
    if (isNavFile(book)) {
      const text = (await files.readText(book)) ?? '';
      const src = /^\s*src\s*=\s*["']([^"']+)["']/m.exec(text)?.[1] ?? 'src';
      const path = resolveRelative(dir, `${src}/SUMMARY.md`);
      if (path && isNavFile(path)) return path;
    }
    for (const name of ['.gitbook.yaml', '.gitbook.yml']) {
      const config = inFolder(dir, name);
      if (!isNavFile(config)) continue;
      const yaml = parseYamlMap((await files.readText(config)) ?? '', {
        path: config,
        codePrefix: 'sites',
        what: name,
      });
      const root = typeof yaml.data.root === 'string' ? yaml.data.root : '.';
      const structure = yaml.data.structure;
      const summary =
        structure !== null &&
        typeof structure === 'object' &&
        typeof (structure as Record<string, unknown>).summary === 'string'
          ? ((structure as Record<string, unknown>).summary as string)
          : 'SUMMARY.md';
      const path = resolveRelative(dir, `${root}/${summary}`);
      if (path && isNavFile(path)) return path;
    }
  }
  return null;
}

/** The pages a SUMMARY.md links, in order, with their link text as menu title. Never throws. */
export function readSummaryNav(path: string, text: string, exists: (path: string) => boolean): NavReading {
  const reading = noReading();
  reading.navFiles.push(path);
  const dir = folderOf(path);
  const seen = new Set<string>();
  let inFence = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence || /^\s*#/.test(line)) continue;
    for (const match of line.matchAll(LINK)) {
      const target = match[2];
      if (target === '') continue;
      const resolved = resolveRelative(dir, target);
      if (resolved === null) continue;
      const page = exists(resolved) ? resolved : indexOf(resolved, exists);
      if (page) addEntry(reading.entries, seen, page, unescapeTitle(match[1]));
    }
  }
  return reading;
}

/** A link to a folder names its README or index page. */
function indexOf(path: string, exists: (path: string) => boolean): string | null {
  for (const name of ['README.md', 'readme.md', 'index.md']) {
    const candidate = inFolder(path.replace(/\/$/, ''), name);
    if (exists(candidate)) return candidate;
  }
  return null;
}

function unescapeTitle(title: string): string {
  return title.replace(/\\(.)/g, '$1').replace(/[*_`]/g, '').trim();
}
