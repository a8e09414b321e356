/**
 * Antora's navigation (https://docs.antora.org/antora/latest/navigation/): a component's
 * `antora.yml` lists its navigation files (`nav:`), each an AsciiDoc list of cross references
 * (`* xref:page.adoc[Title]`, nested with more `*`). Pages live under `modules/<module>/pages/`;
 * a reference names a page of the navigation file's own module unless it names another
 * (`module:page.adoc`). References to other components, and list items that are only text
 * (category titles), name no page of this site. An empty link text (`xref:page.adoc[]`) gives no
 * title: the page's own is used. The component's start page is `start_page`, else the ROOT
 * module's `index.adoc`.
 */
import { parseYamlMap } from '../../chunking/yamlMap';
import type { FileSource } from '../../workspace/fileSource';
import { addEntry, foldersUp, inFolder, type IsNavFile, type NavReading, noReading, resolveRelative } from './navTypes';

const XREF = /xref:([^[\s]+)\[([^\]]*)\]/g;

/** The component descriptor (`antora.yml`) at or above the site's folder, if any. */
export function findAntora(isNavFile: IsNavFile, docsDir: string): string | null {
  for (const dir of foldersUp(docsDir)) {
    for (const name of ['antora.yml', 'antora.yaml']) {
      const path = inFolder(dir, name);
      if (isNavFile(path)) return path;
    }
  }
  return null;
}

/**
 * The pages a component's navigation files list, in order; `isPage` says which paths are pages
 * of the site. Never throws.
 */
export async function readAntoraNav(
  files: FileSource,
  descriptor: string,
  isNavFile: IsNavFile,
  isPage: (path: string) => boolean,
): Promise<NavReading> {
  const reading = noReading();
  const root = descriptor.slice(0, Math.max(0, descriptor.lastIndexOf('/')));
  const yaml = parseYamlMap((await files.readText(descriptor)) ?? '', {
    path: descriptor,
    codePrefix: 'sites',
    what: 'antora.yml',
  });
  for (const problem of yaml.problems) reading.problems.push(problem);
  const component = typeof yaml.data.name === 'string' ? yaml.data.name : undefined;
  const navList = Array.isArray(yaml.data.nav) ? yaml.data.nav.filter((n): n is string => typeof n === 'string') : [];
  // The start page: `start_page`, else the ROOT module's index page.
  const start = pagePath(
    root,
    component,
    'ROOT',
    typeof yaml.data.start_page === 'string' ? yaml.data.start_page : 'index.adoc',
  );
  if (start && isPage(start)) reading.start = start;
  const seen = new Set<string>();
  for (const navFile of navList) {
    const path = resolveRelative(root, navFile);
    if (path === null) continue;
    const text = isNavFile(path) ? await files.readText(path) : null;
    if (text === null) {
      reading.problems.push({
        path: descriptor,
        line: yaml.keyLines.nav ?? 1,
        severity: 'warning',
        code: 'sites.nav-missing-file',
        message: `antora.yml names the navigation file '${navFile}', which is not in the workspace.`,
      });
      continue;
    }
    reading.navFiles.push(path);
    const module = /(?:^|\/)modules\/([^/]+)\/[^/]+$/.exec(path)?.[1] ?? 'ROOT';
    for (const line of text.split('\n')) {
      if (!/^\s*\*+\s/.test(line)) continue;
      for (const match of line.matchAll(XREF)) {
        const page = pagePath(root, component, module, match[1]);
        if (page && isPage(page)) addEntry(reading.entries, seen, page, match[2]);
      }
    }
  }
  return reading;
}

/**
 * The file a page reference names: `[version@][component:][module:]page.adoc[#fragment]`,
 * relative to the module's `pages/` folder; null for another component's page.
 */
function pagePath(root: string, component: string | undefined, module: string, ref: string): string | null {
  const target = ref.replace(/#.*$/, '').replace(/^[^@:]*@/, '');
  const parts = target.split(':');
  let page = parts.pop() ?? '';
  let targetModule = module;
  if (parts.length === 2) {
    if (component !== undefined && parts[0] !== component) return null;
    targetModule = parts[1] || module;
  } else if (parts.length === 1) {
    targetModule = parts[0] || module;
  } else if (parts.length > 2) return null;
  if (page.startsWith('page$')) page = page.slice(5);
  if (!/\.adoc$/.test(page)) page = `${page}.adoc`;
  return resolveRelative(root, `modules/${targetModule}/pages/${page}`);
}
