/**
 * Workspace symbols: every catalog entity (by its ref, title as container) and every section of
 * the indexed documents (by heading, document title and path as container).
 *
 * Matching is VS Code's own rule, the query's characters in order anywhere in the name, ignoring
 * case; names that contain the query as one piece come first, then entities before sections, then
 * by name.
 */
import { SymbolKind, type SymbolInformation, type WorkspaceSymbolParams } from 'vscode-languageserver';
import type { FeatureContext } from './context';
import { lineRange } from './documents';
import { declarationLine } from './entityFacts';

/** Most symbols returned for one query. Default 250. */
export const MAX_WORKSPACE_SYMBOLS = 250;

const KIND_SYMBOLS: Record<string, SymbolKind> = {
  domain: SymbolKind.Namespace,
  system: SymbolKind.Package,
  component: SymbolKind.Class,
  api: SymbolKind.Interface,
  resource: SymbolKind.Struct,
  group: SymbolKind.Module,
  user: SymbolKind.Object,
  location: SymbolKind.File,
  template: SymbolKind.Constructor,
};

interface Candidate {
  symbol: SymbolInformation;
  entity: boolean;
  contiguous: boolean;
}

export function workspaceSymbols(ctx: FeatureContext, params: WorkspaceSymbolParams): SymbolInformation[] {
  const state = ctx.state();
  if (!state) return [];
  const query = params.query.trim().toLowerCase();
  const candidates: Candidate[] = [];
  const consider = (name: string, make: () => SymbolInformation | null, entity: boolean) => {
    const match = matches(name.toLowerCase(), query);
    if (!match) return;
    const symbol = make();
    if (symbol) candidates.push({ symbol, entity, contiguous: match === 'contiguous' });
  };

  for (const entity of state.entities) {
    consider(
      entity.ref,
      () => {
        const uri = ctx.documents.uriOf(entity.location.path);
        if (!uri) return null;
        return {
          name: entity.ref,
          kind: KIND_SYMBOLS[entity.kind.toLowerCase()] ?? SymbolKind.Object,
          location: { uri, range: lineRange(declarationLine(state, entity)) },
          containerName: entity.title ?? entity.kind,
        };
      },
      true,
    );
  }
  for (const doc of state.docs.values()) {
    if (doc.sourceKind === 'catalog_entity') continue;
    for (const section of doc.sections) {
      const name = section.headingPath[section.headingPath.length - 1] ?? doc.title;
      consider(
        name,
        () => {
          const uri = ctx.documents.uriOf(doc.path);
          if (!uri) return null;
          return {
            name,
            kind: SymbolKind.String,
            location: { uri, range: lineRange(section.startLine) },
            containerName: `${doc.title} · ${doc.path}`,
          };
        },
        false,
      );
    }
  }
  candidates.sort(
    (a, b) =>
      Number(b.contiguous) - Number(a.contiguous) ||
      Number(b.entity) - Number(a.entity) ||
      compare(a.symbol.name, b.symbol.name) ||
      compare(a.symbol.location.uri, b.symbol.location.uri) ||
      a.symbol.location.range.start.line - b.symbol.location.range.start.line,
  );
  return candidates.slice(0, MAX_WORKSPACE_SYMBOLS).map((c) => c.symbol);
}

/** `contiguous` when the name holds the query as one piece, `scattered` for a subsequence. */
function matches(name: string, query: string): 'contiguous' | 'scattered' | null {
  if (name.includes(query)) return 'contiguous';
  let at = 0;
  for (const char of query.replace(/\s+/g, '')) {
    at = name.indexOf(char, at);
    if (at < 0) return null;
    at++;
  }
  return 'scattered';
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
