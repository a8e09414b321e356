/**
 * What "the page I expected" names, and, when the index holds nothing by that name, why it is not
 * indexed: outside the served folders, no such file, an ignored path, no source glob reads it,
 * a file that could not be read (with its problem), a documentation file that is not documentation
 * (vendored, generated, a template) or in a format not read yet, as the index's coverage says
 * (engine/indexing/coverage.ts), or a file read for another role that makes no page. The expected page is given as a workspace-relative path, a document or section id (or a
 * unique prefix of 4+ characters), or a catalog entity ref.
 */
import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import {
  resolveIdPrefix,
  resolveEntityInput,
  type IndexState,
  type SectionEntry,
  type WorkspaceFolder,
  type Doc,
  inSkippedDir,
  type SourceMatcher,
  type UnreadReason,
  folderOf,
  relativePosix,
  usesFolderPrefix,
  workspacePath,
} from '../../engine';
import { hiddenReason } from '../view/readiness';
import { docIdByPrefix, docsByPath } from './targetLookup';

export type TargetKind = 'path' | 'document' | 'section' | 'entity';

export interface ExpectedTarget {
  input: string;
  kind: TargetKind;
  /** How the target is named in explanations: a path, a heading path or an entity ref. */
  label: string;
  /** Documents that count as the target (a section target: its document). */
  docIds: ReadonlySet<string>;
  /** A section target's id; an entity target's key. */
  sectionId?: string;
  entityKey?: string;
  /** A library page get_context and the library tools do not serve, and why. */
  hidden?: 'draft' | 'expired';
}

/** True for the sections that count as the target. */
export function targetPredicate(target: ExpectedTarget): (entry: SectionEntry) => boolean {
  if (target.sectionId) return (entry) => entry.section.id === target.sectionId;
  if (target.entityKey) {
    const key = target.entityKey;
    return (entry) => (entry.section.entityRefs ?? entry.doc.entityRefs).includes(key);
  }
  return (entry) => target.docIds.has(entry.doc.id);
}

/**
 * The documents holding every section `targetPredicate` accepts, so the explanation reads only
 * theirs: a path's, a document's or a section's own. Undefined for an entity, whose sections are
 * told by their own entity refs (every section is tested).
 */
export function targetDocs(target: ExpectedTarget): ReadonlySet<string> | undefined {
  return target.entityKey ? undefined : target.docIds;
}

/** The target `input` names in `state`, or null when the index holds nothing by that name. */
export function resolveTarget(state: IndexState, input: string, today: string): ExpectedTarget | null {
  const text = input.trim().replace(/^\.\//, '');
  const hiddenOf = (docs: readonly Doc[]) =>
    docs.map((d) => hiddenReason(d, today)).find((r) => r !== null) ?? undefined;
  const byPath = docsByPath(state, text);
  if (byPath.length > 0) {
    const exact = byPath.filter((d) => d.path === text);
    const docs = exact.length ? exact : byPath;
    return { input, kind: 'path', label: docs[0].path, docIds: new Set(docs.map((d) => d.id)), hidden: hiddenOf(docs) };
  }
  if (/^[0-9a-f]{4,}$/i.test(text)) {
    const docId = docIdByPrefix(state, text);
    if (docId !== undefined) {
      const d = state.docs.get(docId)!;
      return { input, kind: 'document', label: d.path, docIds: new Set([d.id]), hidden: hiddenOf([d]) };
    }
    // A whole section id (as answers give it) is looked up, not found by reading 100k ids.
    const whole = text.toLowerCase();
    const section = state.sectionOrdinalById.has(whole)
      ? { ok: true as const, id: whole }
      : resolveIdPrefix(text, state.sectionOrdinalById.keys());
    if (section.ok) {
      const entry = state.sections[state.sectionOrdinalById.get(section.id)!]!;
      return {
        input,
        kind: 'section',
        label: `${entry.doc.path} > ${entry.section.headingPath.join(' > ')}`,
        docIds: new Set([entry.doc.id]),
        sectionId: section.id,
        hidden: hiddenOf([entry.doc]),
      };
    }
  }
  const entity = resolveEntityInput(state.graph, text);
  if (entity.ok && (text.includes(':') || !looksLikePath(text))) {
    const docs = [...state.docs.values()].filter((d) => d.entityRefs.includes(entity.key));
    return {
      input,
      kind: 'entity',
      label: state.graph.get(entity.key)?.ref ?? entity.key,
      docIds: new Set(docs.map((d) => d.id)),
      entityKey: entity.key,
    };
  }
  return null;
}

export type AbsentReason =
  | 'outside-served-folders'
  | 'no-such-file'
  | 'ignored'
  | 'no-source-glob'
  | 'unreadable'
  | 'no-page'
  | 'not-documentation'
  | 'unknown-id'
  | 'unknown-entity';

export interface AbsentExplanation {
  reason: AbsentReason;
  summary: string;
  fix: string;
}

/** Why nothing in the index answers to `input` (see the module comment). */
export function explainAbsent(
  state: IndexState,
  folders: readonly WorkspaceFolder[],
  matcher: SourceMatcher,
  input: string,
): AbsentExplanation {
  const text = input.trim().replace(/^\.\//, '');
  if (!looksLikePath(text)) {
    if (/^[0-9a-f]{4,}$/i.test(text)) {
      return {
        reason: 'unknown-id',
        summary: `No document or section of the index has an id starting with ${text}.`,
        fix: 'Copy the id from an answer (ask, context, toc), or name the page by its path.',
      };
    }
    const entity = resolveEntityInput(state.graph, text);
    return {
      reason: 'unknown-entity',
      summary: entity.ok ? `The entity ${text} has no document.` : entity.message,
      fix: 'Declare the entity in a catalog-info.yaml the catalog globs read, or name the page by its path.',
    };
  }
  const located = locate(folders, text);
  if (!located) {
    return {
      reason: 'outside-served-folders',
      summary: `${text} is outside the served folders (${folders.map((f) => f.absPath).join(', ')}).`,
      fix: 'Serve the folder that holds it (--workspace DIR, or add it to the VS Code workspace), or, over HTTP, use a token whose folders include it.',
    };
  }
  const { folder, rel, abs } = located;
  const wsPath = workspacePath(folders, folder.name, rel);
  if (!existsSync(abs) || !statSync(abs).isFile()) {
    return {
      reason: 'no-such-file',
      summary: `There is no file ${rel} in the served folder ${folder.name} (${folder.absPath}).`,
      fix: 'Check the path: give it relative to the workspace folder, as answers print it.',
    };
  }
  const problems = state.problems.filter((p) => p.path === wsPath);
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) {
    return {
      reason: 'unreadable',
      summary: `${wsPath} could not be read: ${errors.map((p) => `line ${p.line}: ${p.message}`).join('; ')}.`,
      fix: 'Fix the problem named above (wsctx index --verbose lists every problem); the rest of the workspace is indexed without it.',
    };
  }
  const unread = state.coverage?.flatMap((c) => c.unread).find((u) => u.path === wsPath);
  if (unread)
    return unreadExplanation(
      wsPath,
      unread.reason,
      problems.map((p) => p.message),
    );
  if (inSkippedDir(rel) || matcher.isIgnored(rel)) {
    return {
      reason: 'ignored',
      summary: `${wsPath} is under an ignored path (node_modules, .git or a sources.ignore glob).`,
      fix: 'Remove the matching sources.ignore glob from .wsctx.yaml (or --ignore), or move the page.',
    };
  }
  const roles = matcher.roles(rel);
  if (roles.length === 0) {
    return {
      reason: 'no-source-glob',
      summary: `No source glob matches ${wsPath}: it is not a catalog file, a documentation page (Markdown, MDX, reStructuredText, AsciiDoc), an epic or a library page.`,
      fix: 'Write it as a Markdown page, attach it to an entity with backstage.io/techdocs-ref, or add a glob for it under sources in .wsctx.yaml.',
    };
  }
  const notes = problems.map((p) => `line ${p.line}: ${p.message}`).join('; ');
  return {
    reason: 'no-page',
    summary: `${wsPath} is read only as ${roles.join(', ')}, which makes no page of its own${notes ? ` (${notes})` : ''}.`,
    fix: 'Widen sources.docs in .wsctx.yaml to take it (its default reads every Markdown page), or mark it as an epic (kind: epic in its front matter).',
  };
}

/** Why a documentation file the index found is not read, from its coverage reason. */
function unreadExplanation(wsPath: string, reason: UnreadReason, problems: readonly string[]): AbsentExplanation {
  const why = problems.length ? ` (${problems.join('; ')})` : '';
  switch (reason) {
    case 'ignored':
      return {
        reason: 'ignored',
        summary: `${wsPath} is ignored (.gitignore or a sources.ignore glob).`,
        fix: 'Remove the matching rule from .gitignore or sources.ignore (or --ignore), or move the page.',
      };
    case 'vendored':
    case 'generated':
    case 'template':
      return {
        reason: 'not-documentation',
        summary: `${wsPath} is ${NOT_DOCUMENTATION[reason]}, so it is not read as documentation.`,
        fix: 'Move the page out of that folder (or, for a generated page, edit its source and index that).',
      };
    case 'unsupported-format':
      return {
        reason: 'no-page',
        summary: `${wsPath} is documentation in a format not split into sections yet; it is found but not read.`,
        fix: 'Write it as Markdown, or wait for its format to be read.',
      };
    case 'not-in-sources':
      return {
        reason: 'no-source-glob',
        summary: `${wsPath} is documentation the sources.docs globs leave out.`,
        fix: 'Widen sources.docs in .wsctx.yaml (its default reads every Markdown, MDX, reStructuredText and AsciiDoc file) or remove the key.',
      };
    case 'too-big':
    case 'unreadable':
      return {
        reason: 'unreadable',
        summary: `${wsPath} could not be read${why || (reason === 'too-big' ? ' (over maxFileSize)' : '')}.`,
        fix: 'Fix the problem named above (wsctx index --verbose lists every problem); the rest of the workspace is indexed without it.',
      };
    case 'another-role':
      return {
        reason: 'no-page',
        summary: `${wsPath} is read by another source that made no page of it${why}.`,
        fix: 'wsctx index --verbose lists the problems found in it.',
      };
  }
}

/** What a vendored, generated or template page is, in a sentence. */
const NOT_DOCUMENTATION: Record<'vendored' | 'generated' | 'template', string> = {
  vendored: "in a vendored folder (someone else's code kept in the repository: vendor/, third_party/...)",
  generated: 'generated (a build or site output folder, or marked generated at its top)',
  template: 'an issue or pull-request template',
};

function looksLikePath(text: string): boolean {
  return text.includes('/') && !/^[a-z]+:/i.test(text) ? true : /\.[a-z0-9]{1,5}$/i.test(text) || path.isAbsolute(text);
}

/** The served folder and folder-relative path `text` names (absolute, or workspace-relative). */
function locate(
  folders: readonly WorkspaceFolder[],
  text: string,
): { folder: WorkspaceFolder; rel: string; abs: string } | null {
  if (path.isAbsolute(text)) {
    const folder = folderOf(folders, text) as WorkspaceFolder | undefined;
    return folder ? { folder, rel: relativePosix(folder.absPath, text), abs: text } : null;
  }
  if (usesFolderPrefix(folders)) {
    const slash = text.indexOf('/');
    const folder = folders.find((f) => f.name === text.slice(0, slash));
    if (folder) return { folder, rel: text.slice(slash + 1), abs: path.join(folder.absPath, text.slice(slash + 1)) };
  }
  if (text.startsWith('../')) return null;
  for (const folder of folders) {
    const abs = path.join(folder.absPath, text);
    if (existsSync(abs)) return { folder, rel: text, abs };
  }
  return { folder: folders[0], rel: text, abs: path.join(folders[0].absPath, text) };
}
