/**
 * A site's `mkdocs.yml` as the reader of documentation sites needs it (techdocs.ts): `site_name`,
 * `docs_dir` and the flattened `nav`, with the line of each key and nav entry for problems. A pure
 * function of path and text, plain data out: a full pass's read workers parse these beside their
 * reads (indexing/readParses.ts), and a site takes that parse for the very text it was made of.
 */
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { parseYamlMap } from '../chunking/yamlMap';
import type { Problem } from '../model';
import { FieldReader } from './fields';

/** A page named in `nav`, flattened in reading order. */
export interface NavPage {
  /** Path relative to docs_dir, anchor removed. */
  file: string;
  /** Title given in nav, when any. */
  title?: string;
  /** Titles of the nav sections containing the page. */
  sections: string[];
  /** Line in mkdocs.yml. */
  line: number;
}

export interface MkDocsConfig {
  siteName?: string;
  /** As written, relative to mkdocs.yml. Default `docs`. */
  docsDir: string;
  nav: NavPage[];
  /** 1-based line of each top-level key. */
  keyLines: Record<string, number>;
  problems: Problem[];
}

/**
 * Configs parsed before this pass needed them (a read worker's, indexing/readParses.ts): the one
 * made of `path` holding exactly `text`, or undefined when there is none (then it is parsed now).
 */
export type ParsedMkDocs = (path: string, text: string) => MkDocsConfig | undefined;

/** Reads `mkdocs.yml`: `site_name`, `docs_dir` and the flattened `nav`. Never throws. */
export function parseMkDocs(path: string, text: string): MkDocsConfig {
  const yaml = parseYamlMap(text, { path, codePrefix: 'techdocs', what: 'mkdocs.yml' });
  const problems = [...yaml.problems];
  const fields = new FieldReader(yaml.data, {
    path,
    keyLines: yaml.keyLines,
    code: 'techdocs.invalid-field',
    label: 'mkdocs.yml field',
    problems,
  });
  const config: MkDocsConfig = {
    docsDir: fields.string('docs_dir') ?? 'docs',
    nav: [],
    keyLines: yaml.keyLines,
    problems,
  };
  const siteName = fields.string('site_name');
  if (siteName) config.siteName = siteName;

  const contents = yaml.ok ? yaml.document.contents : null;
  const navNode = isMap(contents) ? contents.get('nav', true) : undefined;
  if (navNode === undefined || navNode === null) return config;
  if (!isSeq(navNode)) {
    fields.report('nav', 'must be a list of pages and sections');
    return config;
  }
  const visit = (items: readonly unknown[], sections: string[]) => {
    for (const item of items) {
      const line = yaml.lineAt((item as Node).range?.[0] ?? 0);
      if (isScalar(item) && typeof item.value === 'string') {
        addPage(item.value, undefined, sections, line);
      } else if (isMap(item) && item.items.length === 1 && isScalar(item.items[0].key)) {
        const title = String(item.items[0].key.value);
        const value = item.items[0].value;
        if (isScalar(value) && typeof value.value === 'string') addPage(value.value, title, sections, line);
        else if (isSeq(value)) visit(value.items, [...sections, title]);
        else navProblem(line, `nav entry '${title}' must name a page or hold a list of entries`);
      } else {
        navProblem(line, 'nav entries must be a page path or a single `Title: page` pair');
      }
    }
  };
  const addPage = (target: string, title: string | undefined, sections: string[], line: number) => {
    // External links in nav are navigation only, not pages of these docs.
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) return;
    const file = target.replace(/#.*$/, '').trim();
    if (file === '') return;
    config.nav.push(title === undefined ? { file, sections, line } : { file, title, sections, line });
  };
  const navProblem = (line: number, message: string) =>
    problems.push({ path, line, severity: 'warning', code: 'techdocs.invalid-nav', message: `mkdocs.yml ${message}.` });
  visit(navNode.items, []);
  return config;
}
