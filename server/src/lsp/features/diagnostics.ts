/**
 * Workspace diagnostics: every file's problems, published for the whole workspace (not only open
 * files) after each index pass, and the same list as one report ("Show diagnostics").
 *
 * Diagnostics come from sources, each a plain function of the index state. Today's sources:
 * - `problems`: what the parsers reported (invalid entities, duplicate entities with the kept one
 *   as related information, YAML errors, unreadable files...);
 * - `unresolved-refs`: relation fields and `kind:name` refs in indexed documents that name no
 *   entity, with the nearest refs as related information;
 * - `expired-pages`: library pages past their `expires` date, with the pages that link to them;
 * - `library-flags`: conflicting and near-duplicate library pages (library/view/conflicts.ts,
 *   with the model's conflict flags when the host runs the check), one on each page with the
 *   other as related information, less those the pages settle with `conflicts_resolved`; and
 *   the problems of those `conflicts_resolved` entries (library/soundness.ts).
 * - `expectations`: the failures and problems of each folder's `.wsctx/expectations.yaml`
 *   (expectationDiagnostics.ts), run as `wsctx check` runs them.
 * A new kind is one more `DiagnosticSource` in {@link DIAGNOSTIC_SOURCES}; publishing and the
 * report pick it up unchanged.
 */
import { DiagnosticSeverity, type Diagnostic, type DiagnosticRelatedInformation } from 'vscode-languageserver';
import type { DiagnosticsReport, DiagnosticsReportItem, ReportSeverity } from '../../../../shared/protocol';
import {
  type IndexState,
  type RelatedPlace,
  type Severity,
  findEntityMentionsAsync,
  type EntityMention,
  isExpired,
} from '../../engine';
import { flagsAsProblems, type FlagSource } from '../../library/view/conflicts';
import { libraryView } from '../../library/view/libraryView';
import { dayOf } from '../../library/view/readiness';
import { librarySoundness } from '../../library/view/soundness';
import { contentRange, lineRange, type DocumentStore } from './documents';
import { declarationLine, suggestionsFor } from './entityFacts';
import { pageLinks } from './documentLinks';

/** One diagnostic, in the engine's coordinates (workspace-relative path, 1-based lines). */
export interface WorkspaceDiagnostic {
  path: string;
  line: number;
  /** 1-based columns (end exclusive); the line's content when absent. */
  column?: number;
  endColumn?: number;
  severity: Severity;
  code: string;
  message: string;
  /** The source's id. */
  source: string;
  related?: RelatedPlace[];
}

export interface DiagnosticInput {
  state: IndexState;
  /** `YYYY-MM-DD` (UTC) that expiry dates are compared with. */
  today: string;
  /** Text of a workspace-relative path as saved (diagnostics describe the index, which read the saved files). */
  readText(path: string): Promise<string | null>;
  /** Entity mentions of a file as saved; unchanged files (same digest in the index) are not read again. */
  mentionsOf(path: string): Promise<EntityMention[]>;
  /** More library flags than the deterministic ones (the model's conflict check), when the host runs it. */
  flagSources?: readonly FlagSource[];
  /** The expectations files' failures and problems (expectationDiagnostics.ts), when the host has services to ask. */
  expectations?: () => Promise<WorkspaceDiagnostic[]>;
}

export interface DiagnosticSource {
  /** Stable id, reported with each diagnostic. */
  id: string;
  collect(input: DiagnosticInput): Promise<WorkspaceDiagnostic[]>;
}

const problemsSource: DiagnosticSource = {
  id: 'problems',
  async collect({ state }) {
    return state.problems.map((p) => ({
      path: p.path,
      line: p.line,
      ...(p.column !== undefined ? { column: p.column } : {}),
      severity: p.severity,
      code: p.code,
      message: p.message,
      source: 'problems',
      ...(p.related?.length ? { related: p.related } : {}),
    }));
  },
};

/** Documents whose text refs are checked: everything indexed but the catalog's own entries. */
function textRefPaths(state: IndexState): string[] {
  const paths = new Set<string>();
  for (const doc of state.docs.values()) if (doc.sourceKind !== 'catalog_entity') paths.add(doc.path);
  return [...paths].sort();
}

const unresolvedRefsSource: DiagnosticSource = {
  id: 'unresolved-refs',
  async collect({ state, mentionsOf }) {
    const out: WorkspaceDiagnostic[] = [];
    const catalogPaths = [...new Set(state.entities.map((e) => e.location.path))].sort();
    const fieldsOnly = new Set(catalogPaths);
    for (const path of [...catalogPaths, ...textRefPaths(state).filter((p) => !fieldsOnly.has(p))]) {
      for (const mention of await mentionsOf(path)) {
        if (!mention.key || state.graph.has(mention.key) || mention.via === 'name') continue;
        // In catalog files only relation fields count: a description may mention anything.
        if (fieldsOnly.has(path) && mention.via !== 'field') continue;
        const suggestions = suggestionsFor(state, mention.key);
        const hint = suggestions.length ? ` Did you mean ${suggestions.map((s) => `'${s}'`).join(' or ')}?` : '';
        const where = mention.field ? ` in ${mention.field}` : '';
        out.push({
          path,
          line: mention.line,
          column: mention.column,
          endColumn: mention.endColumn,
          severity: 'warning',
          code: 'ref.unresolved',
          message: `'${mention.key}'${where} names no entity in the catalog.${hint}`,
          source: 'unresolved-refs',
          related: suggestions.flatMap((ref) => {
            const entity = state.graph.get(ref);
            return entity
              ? [{ path: entity.location.path, line: declarationLine(state, entity), message: `Did you mean ${ref}?` }]
              : [];
          }),
        });
      }
    }
    return out;
  },
};

const expiredPagesSource: DiagnosticSource = {
  id: 'expired-pages',
  async collect({ state, today, readText }) {
    const out: WorkspaceDiagnostic[] = [];
    const docs = [...state.docs.values()]
      .filter((d) => d.library && isExpired(d.library, today))
      .sort((a, b) => (a.path < b.path ? -1 : 1));
    for (const doc of docs) {
      const text = (await readText(doc.path)) ?? '';
      const line = frontMatterLine(text, 'expires') ?? 1;
      const related: RelatedPlace[] = [];
      for (const other of state.docs.values()) {
        if (other.id === doc.id || !other.library?.links.some((l) => l.toLowerCase() === doc.title.toLowerCase()))
          continue;
        const otherText = await readText(other.path);
        const link =
          otherText === null
            ? undefined
            : pageLinks(otherText).find((l) => l.title.toLowerCase() === doc.title.toLowerCase());
        related.push({ path: other.path, line: link?.line ?? 1, message: `"${other.title}" links to it` });
      }
      out.push({
        path: doc.path,
        line,
        severity: 'warning',
        code: 'library.expired',
        message: `"${doc.title}" expired on ${doc.library!.expires}; library tools no longer serve it. Update it and its expires date, or remove it.`,
        source: 'expired-pages',
        ...(related.length
          ? { related: related.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line)) }
          : {}),
      });
    }
    return out;
  },
};

const libraryFlagsSource: DiagnosticSource = {
  id: 'library-flags',
  async collect({ state, today, flagSources }) {
    const soundness = librarySoundness(libraryView(state, today), flagSources ?? []);
    return [...flagsAsProblems(soundness.flags), ...soundness.problems].map((p) => ({
      path: p.path,
      line: p.line,
      severity: p.severity,
      code: p.code,
      message: p.message,
      source: 'library-flags',
      ...(p.related?.length ? { related: p.related } : {}),
    }));
  },
};

/** `.wsctx/expectations.yaml`: the questions a team relies on whose pages did not come, and the file's problems. */
const expectationsSource: DiagnosticSource = {
  id: 'expectations',
  async collect({ expectations }) {
    return expectations ? expectations() : [];
  },
};

/** The sources every report runs, in this order. */
export const DIAGNOSTIC_SOURCES: readonly DiagnosticSource[] = [
  problemsSource,
  unresolvedRefsSource,
  expiredPagesSource,
  libraryFlagsSource,
  expectationsSource,
];

/**
 * What is published as soon as a pass is in service: everything read from the index itself. The
 * expectations ask questions (and may wait for the embedding model to answer them), so they are
 * published after, on their own (diagnosticsPublisher.ts).
 */
export const PASS_SOURCES: readonly DiagnosticSource[] = DIAGNOSTIC_SOURCES.filter((s) => s !== expectationsSource);
export const EXPECTATION_SOURCES: readonly DiagnosticSource[] = [expectationsSource];

/** Every diagnostic of the state, sorted by path, line, column and code. */
export async function collectDiagnostics(
  input: DiagnosticInput,
  sources: readonly DiagnosticSource[] = DIAGNOSTIC_SOURCES,
): Promise<WorkspaceDiagnostic[]> {
  const all: WorkspaceDiagnostic[] = [];
  for (const source of sources) all.push(...(await source.collect(input)));
  return all.sort(
    (a, b) =>
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      a.line - b.line ||
      (a.column ?? 0) - (b.column ?? 0) ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}

/** Mentions by path, kept while the file's digest in the index is unchanged. */
const mentionCache = new Map<string, { digest: string; mentions: EntityMention[] }>();

export function diagnosticInput(
  state: IndexState,
  documents: DocumentStore,
  now = new Date(),
  flagSources: readonly FlagSource[] = [],
): DiagnosticInput {
  const texts = new Map<string, Promise<string | null>>();
  const readText = (path: string) => {
    let text = texts.get(path);
    if (!text) texts.set(path, (text = documents.fileText(path)));
    return text;
  };
  const mentionsOf = async (path: string): Promise<EntityMention[]> => {
    const digest = state.fileDigests.get(path);
    const cached = mentionCache.get(path);
    if (digest !== undefined && cached?.digest === digest) return cached.mentions;
    const text = await readText(path);
    // The async form waits for the source grammar, so diagnostics never depend on load timing.
    const mentions = text === null ? [] : await findEntityMentionsAsync(path, text);
    if (digest !== undefined) mentionCache.set(path, { digest, mentions });
    return mentions;
  };
  for (const path of mentionCache.keys()) if (!state.fileDigests.has(path)) mentionCache.delete(path);
  return { state, today: dayOf(now), readText, mentionsOf, flagSources };
}

const SEVERITIES: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

interface Converted {
  uri: string;
  item: WorkspaceDiagnostic;
  diagnostic: Diagnostic;
  /** Workspace-relative path of each related location, in order. */
  relatedPaths: string[];
}

/** Each item as an LSP diagnostic (items outside the served folders are left out). */
async function convert(
  items: readonly WorkspaceDiagnostic[],
  input: DiagnosticInput,
  documents: DocumentStore,
): Promise<Converted[]> {
  const out: Converted[] = [];
  for (const item of items) {
    const uri = documents.uriOf(item.path);
    if (!uri) continue;
    const range =
      item.endColumn !== undefined
        ? lineRange(item.line, item.column, item.endColumn)
        : contentRange(await input.readText(item.path), item.line, item.column);
    const related: DiagnosticRelatedInformation[] = [];
    const relatedPaths: string[] = [];
    for (const place of item.related ?? []) {
      const relatedUri = documents.uriOf(place.path);
      if (!relatedUri) continue;
      related.push({
        location: { uri: relatedUri, range: contentRange(await input.readText(place.path), place.line) },
        message: place.message,
      });
      relatedPaths.push(place.path);
    }
    const diagnostic: Diagnostic = {
      range,
      severity: SEVERITIES[item.severity],
      code: item.code,
      source: 'workspace-context',
      message: item.message,
    };
    if (related.length) diagnostic.relatedInformation = related;
    out.push({ uri, item, diagnostic, relatedPaths });
  }
  return out;
}

/** LSP diagnostics by document URI. */
export async function toLspDiagnostics(
  items: readonly WorkspaceDiagnostic[],
  input: DiagnosticInput,
  documents: DocumentStore,
): Promise<Map<string, Diagnostic[]>> {
  const byUri = new Map<string, Diagnostic[]>();
  for (const { uri, diagnostic } of await convert(items, input, documents)) {
    const list = byUri.get(uri);
    if (list) list.push(diagnostic);
    else byUri.set(uri, [diagnostic]);
  }
  return byUri;
}

/** The "Show diagnostics" report of the same items. */
export async function diagnosticsReport(
  state: IndexState,
  items: readonly WorkspaceDiagnostic[],
  input: DiagnosticInput,
  documents: DocumentStore,
  now = new Date(),
): Promise<DiagnosticsReport> {
  const bySeverity: Record<ReportSeverity, number> = { error: 0, warning: 0, info: 0 };
  const byCode: Record<string, number> = {};
  const reportItems: DiagnosticsReportItem[] = [];
  for (const { uri, item, diagnostic, relatedPaths } of await convert(items, input, documents)) {
    bySeverity[item.severity]++;
    byCode[item.code] = (byCode[item.code] ?? 0) + 1;
    reportItems.push({
      uri,
      path: item.path,
      range: diagnostic.range,
      severity: item.severity,
      code: item.code,
      message: item.message,
      source: item.source,
      related: (diagnostic.relatedInformation ?? []).map((r, i) => ({
        uri: r.location.uri,
        path: relatedPaths[i],
        range: r.location.range,
        message: r.message,
      })),
    });
  }
  return {
    generatedAt: now.toISOString(),
    indexedAt: state.indexedAt,
    total: reportItems.length,
    bySeverity,
    byCode,
    items: reportItems,
  };
}

/** Line of a top-level front matter key, or undefined. */
function frontMatterLine(text: string, key: string): number | undefined {
  const lines = text.split('\n');
  if (!/^---\s*$/.test(lines[0] ?? '')) return undefined;
  for (let i = 1; i < lines.length && !/^(---|\.\.\.)\s*$/.test(lines[i]); i++) {
    if (new RegExp(`^${key}\\s*:`).test(lines[i])) return i + 1;
  }
  return undefined;
}
