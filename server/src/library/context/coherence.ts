/**
 * How much a folder is about one thing (docs/ARCHITECTURE.md, get_context's contract, step 6, "Folders"): siblings come along with a
 * hit only from a coherent folder. A "Voice and tone" folder earns it; a "Battlecards" folder
 * holding one page per competitor does not, because for a task about one competitor its
 * siblings are exactly the wrong pages.
 *
 * Score, 0..1, per directory of ready pages:
 * - the folder's own `folder.yaml` (or, failing that, its library namespace's) says
 *   `profile: focused` -> 1, `profile: catalog` -> 0;
 * - a folder of pages each about a different name of one kind (nameDictionary.ts) -> 0;
 * - a folder of pages each about its own one of the library's recurring subjects (subjects.ts:
 *   a kit's `nextjs/` folder of state management, styling and testing pages, each with its
 *   counterpart in `react/` and `vue/`) -> 0: they are parts of one stack, and for a task about
 *   one of them its siblings are the wrong pages;
 * - otherwise the mean pairwise similarity of its pages' cards (title, summary, Good-for
 *   phrasings, tags; idf-weighted cosine of their words), with 0 for a folder of one page.
 */
import { type Doc, termSet } from '../../engine';
import { documentSummary } from '../view/summaries';
import { pageKind } from '../models/nameDictionary';
import type { ContextIndex } from './contextIndex';
import { termCosine } from './phraseMatch';

export interface FolderCoherence {
  folder: string;
  score: number;
  /** How the score was reached. */
  basis: 'profile' | 'one-name-per-page' | 'one-subject-per-page' | 'similarity';
  pages: readonly Doc[];
}

const caches = new WeakMap<ContextIndex, Map<string, FolderCoherence>>();

/** The directory of a workspace-relative path ('' at the top). */
export function folderOfPath(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

export function folderCoherence(index: ContextIndex, folder: string): FolderCoherence {
  let cache = caches.get(index);
  if (!cache) caches.set(index, (cache = new Map()));
  let found = cache.get(folder);
  if (!found) {
    found = compute(index, folder);
    cache.set(folder, found);
  }
  return found;
}

function compute(index: ContextIndex, folder: string): FolderCoherence {
  const pages = index.view.docs.filter((d) => folderOfPath(d.path) === folder);
  const description = index.view.state.libraryFolders.find((f) => f.folder === folder);
  let profile = description?.profile;
  if (!profile && pages.length > 0) {
    const info = index.view.namespaceByName.get(pages[0].library!.namespace);
    if (info?.profileDeclared && pages[0].library!.namespace !== '') profile = info.profile;
  }
  if (profile) return { folder, score: profile === 'focused' ? 1 : 0, basis: 'profile', pages };
  const kinds = pages.map((p) => pageKind(p));
  const named = pages.filter((p, i) => kinds[i] && index.names.namesOfPage(p.id).length > 0);
  if (named.length >= 2) {
    const distinct = new Set(
      named.map((p) =>
        index.names
          .namesOfPage(p.id)
          .map((n) => n.key)
          .join('|'),
      ),
    );
    if (distinct.size >= 2) return { folder, score: 0, basis: 'one-name-per-page', pages };
  }
  if (pages.length < 2) return { folder, score: 0, basis: 'similarity', pages };
  const subjects = pages.map((p) => index.subjects.of(p)?.names ?? new Set<string>());
  const shared = (n: string) => subjects.every((names) => names.has(n));
  const ownSubject = subjects.filter((names) => [...names].some((n) => !shared(n) && index.subjects.isAxis(n)));
  if (ownSubject.length >= 2) return { folder, score: 0, basis: 'one-subject-per-page', pages };
  const cards = pages.map((p) =>
    termSet([p.title, documentSummary(p), ...p.library!.goodFor, ...p.library!.tags].join('\n')),
  );
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < cards.length; i++) {
    for (let j = i + 1; j < cards.length; j++) {
      sum += termCosine(index, cards[i], cards[j], index.idf);
      pairs++;
    }
  }
  return { folder, score: pairs > 0 ? sum / pairs : 0, basis: 'similarity', pages };
}
