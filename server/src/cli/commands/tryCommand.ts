/**
 * `wsctx try "<plan>" [--profile focused|catalog] [--namespace NS] [--limit N]`: a search with its workings shown (docs/ARCHITECTURE.md, the library tools' contract,
 * "Try a search"): for each matched section, every signal's rank and raw score, the title bonus,
 * the fused score, its size in tokens and whether it made the answer (and why not). Runs the
 * engine directly and is not logged: trying a search is not an agent's call.
 */
import { InputError } from '../../engine';
import { RRF_K, type LibraryProfile } from '../../library/view/constants';
import { libraryView, shownId, type LibrarySection } from '../../library/view/libraryView';
import { namespaceFromArg, namespaceLabel } from '../../library/view/namespaces';
import { dayOf } from '../../library/view/readiness';
import type { SignalScore } from '../../library/view/ranking';
import { searchLibrary } from '../../library/view/search';
import { sectionBlockTokens } from '../../library/view/sectionRender';
import { sectionHeading } from '../../library/view/summaries';
import type { Services } from '../../services/services';
import { table } from '../format';

/** Sections listed by default. */
export const TRY_DEFAULT_ROWS = 30;

export interface TryRow {
  rank: number;
  id: string;
  heading: string;
  document: string;
  documentId: string;
  summary?: SignalScore;
  meaning?: SignalScore;
  exact?: SignalScore;
  titleBonus: number;
  fused: number;
  tokens: number;
  /** `included`, or why not: `weak`, `document-cap`, `budget` (the document's), `not chosen` (a lower section of a larger document). */
  result: string;
}

export interface TryReport {
  plan: string;
  /** The namespace searched, or null for the whole library. */
  namespace: string | null;
  profile: LibraryProfile | null;
  rrfK: number;
  signals: Record<'summary' | 'meaning' | 'exact', boolean>;
  exactTerms: string[];
  matchedSections: number;
  matchedDocuments: number;
  budget: number;
  tokens: number;
  rows: TryRow[];
}

export interface TryCommandArgs {
  plan: string;
  profile?: string;
  /** Search one namespace only ('.' for the top). */
  namespace?: string;
  /** Rows to list (default {@link TRY_DEFAULT_ROWS}). */
  limit?: number;
}

export async function tryReport(
  services: Pick<Services, 'engine' | 'now' | 'sectionMeaning'>,
  args: TryCommandArgs,
): Promise<TryReport> {
  if (args.profile !== undefined && args.profile !== 'focused' && args.profile !== 'catalog') {
    throw new InputError(`--profile must be focused or catalog (got "${args.profile}")`);
  }
  const profile = args.profile as LibraryProfile | undefined;
  const state = await services.engine.waitForIndex();
  const view = libraryView(state, dayOf(services.now()));
  let filter: ((e: LibrarySection) => boolean) | undefined;
  if (args.namespace !== undefined) {
    const namespace = namespaceFromArg(args.namespace);
    if (!view.namespaceByName.has(namespace)) {
      throw new InputError(
        `--namespace ${JSON.stringify(args.namespace)} is not a library namespace; use one of ${view.namespaces.map((n) => JSON.stringify(namespaceLabel(n.name))).join(', ')}`,
      );
    }
    filter = (e) => e.doc.library!.namespace === namespace;
  }
  const { ranking, pack } = await searchLibrary(view, args.plan, { profile, meaning: services.sectionMeaning, filter });
  const included = new Set(pack.documents.flatMap((d) => d.sections.map((s) => s.ranked.entry.section.id)));
  const cutReason = new Map(pack.cut.map((c) => [c.ranked.doc.id, c.reason as string]));
  const rows = ranking.sections.slice(0, args.limit ?? TRY_DEFAULT_ROWS).map((s, i): TryRow => {
    const { section, doc } = s.entry;
    const result = included.has(section.id) ? 'included' : (cutReason.get(doc.id) ?? 'not chosen');
    return {
      rank: i + 1,
      id: shownId(view, section.id),
      heading: sectionHeading(section, doc),
      document: doc.title,
      documentId: shownId(view, doc.id),
      ...s.signals,
      titleBonus: s.titleBonus,
      fused: s.fused,
      tokens: sectionBlockTokens(view, section, doc),
      result,
    };
  });
  return {
    plan: args.plan,
    namespace: args.namespace === undefined ? null : namespaceFromArg(args.namespace),
    profile: profile ?? null,
    rrfK: RRF_K,
    signals: ranking.signals,
    exactTerms: ranking.exactTerms,
    matchedSections: ranking.sections.length,
    matchedDocuments: ranking.documents.length,
    budget: pack.budget,
    tokens: pack.tokens,
    rows,
  };
}

export async function tryCommand(
  services: Services,
  args: TryCommandArgs,
  options: { json: boolean },
): Promise<string> {
  const report = await tryReport(services, args);
  return options.json ? JSON.stringify(report, null, 2) : renderTry(report);
}

export function renderTry(r: TryReport): string {
  const on = (b: boolean) => (b ? 'on' : 'off');
  const exact = r.signals.exact ? ` [${r.exactTerms.join(', ')}]` : '';
  const lines = [
    `Try ${JSON.stringify(r.plan)}${r.namespace === null ? '' : ` in namespace ${JSON.stringify(namespaceLabel(r.namespace))}`}: profile ${r.profile ?? 'per namespace'}; signals summary ${on(r.signals.summary)}, meaning ${on(r.signals.meaning)}, exact ${on(r.signals.exact)}${exact}; RRF k=${r.rrfK}`,
    `${r.matchedSections} sections matched in ${r.matchedDocuments} documents; the answer holds ${r.tokens} of ${r.budget} tokens.`,
  ];
  if (r.rows.length === 0) return `${lines.join('\n')}\n\nNothing matched.`;
  const sig = (s?: SignalScore) => (s ? `#${s.rank} ${s.score.toFixed(3)}` : '-');
  const rows: (string | number)[][] = [
    ['#', 'section', 'heading', 'document', 'summary', 'meaning', 'exact', 'title', 'fused', 'tokens', 'result'],
  ];
  for (const row of r.rows) {
    rows.push([
      row.rank,
      row.id,
      clip(row.heading, 32),
      `${clip(row.document, 28)} [${row.documentId}]`,
      sig(row.summary),
      sig(row.meaning),
      sig(row.exact),
      row.titleBonus > 0 ? `+${row.titleBonus.toFixed(4)}` : '-',
      row.fused.toFixed(5),
      row.tokens,
      row.result,
    ]);
  }
  const more =
    r.matchedSections > r.rows.length ? `\n  … ${r.matchedSections - r.rows.length} more matched sections` : '';
  return `${lines.join('\n')}\n\n${table(rows)}${more}`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
