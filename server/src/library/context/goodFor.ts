/**
 * Step 5, pages and folders matched by what they are for. Every page carries a few phrasings of
 * the work it is for (front matter `good_for`, else a model's, else derived: derivedText.ts); the
 * task is compared with them (phraseMatch.ts), which finds a page of cold-email rules for "cold
 * email to a CFO switching from Avalara" although the page never says CFO.
 *
 * The closest {@link GOOD_FOR_PAGES} pages reaching {@link GOOD_FOR_MATCH} (words or meaning) come in: a page
 * to read whole comes whole (after pack pages, if it fits the allowance); any other keeps its best
 * {@link GOOD_FOR_SECTIONS} sections past the closeness window. A folder whose phrasings match
 * ({@link FOLDER_MATCH}) lifts its pages into the search: their sections rank higher
 * and are kept past the closeness window when related to the task at all.
 */
import type { Doc, FolderDescription } from '../../engine';
import { folderPhrasings, pagePhrasings, type ModelNotes } from '../models/derivedText';
import { FOLDER_MATCH, GOOD_FOR_MATCH, GOOD_FOR_PAGES } from './constants';
import { folderOfPath } from './coherence';
import type { ContextIndex } from './contextIndex';
import type { TextMeaning } from './hooks';
import { clears, matchPhrasings, type PhraseMatch, type PhraseQuery } from './phraseMatch';

export interface GoodForMatch {
  doc: Doc;
  match: PhraseMatch;
  /**
   * The phrasings are the page's own (front matter `good_for`, or a model's), not its title and
   * summary: only a words match on those says what the page is for without its text agreeing.
   */
  declared: boolean;
}

export interface FolderMatch {
  folder: string;
  match: PhraseMatch;
  /** Pages in it and its subfolders that the request may use. */
  pages: Doc[];
  /**
   * Its phrasings are its own (folder.yaml `good_for`, or a model's), not its description and
   * page titles: only then does a match say the task is about the folder's subject.
   */
  declared: boolean;
}

/** Every page's closest phrasing, in the order given. */
export async function scorePages(
  index: ContextIndex,
  pages: readonly Doc[],
  query: PhraseQuery,
  options: { notes?: ModelNotes; meaning?: TextMeaning },
): Promise<GoodForMatch[]> {
  const phrasings = pages.map((d) => pagePhrasings(d, options.notes));
  const matches = await matchPhrasings(
    index,
    query,
    phrasings.map((p) => p.phrasings),
    options.meaning,
  );
  return pages.map((doc, i) => ({ doc, match: matches[i], declared: phrasings[i].source !== 'derived' }));
}

/**
 * The pages that come in by what they are for: the closest few clearing the bars, best first;
 * `excluded` drops matches the request rules out (a page about another stack or product than the
 * task names, one whose text is not related to the task: getContext.ts).
 */
export function selectGoodFor(
  scored: readonly GoodForMatch[],
  excluded: (match: GoodForMatch) => boolean = () => false,
): GoodForMatch[] {
  return scored
    .filter((m) => clears(m.match, GOOD_FOR_MATCH) && !excluded(m))
    .sort((a, b) => b.match.score - a.match.score || (a.doc.path < b.doc.path ? -1 : 1))
    .slice(0, GOOD_FOR_PAGES);
}

/** Folders (every directory holding a page the request may use) whose phrasings match the task. */
export async function matchFolders(
  index: ContextIndex,
  pages: readonly Doc[],
  query: PhraseQuery,
  options: { notes?: ModelNotes; meaning?: TextMeaning },
): Promise<FolderMatch[]> {
  const byFolder = new Map<string, Doc[]>();
  for (const doc of pages) {
    const folder = folderOfPath(doc.path);
    const list = byFolder.get(folder);
    if (list) list.push(doc);
    else byFolder.set(folder, [doc]);
  }
  const folders = [...byFolder.keys()].sort();
  const described = new Map(index.view.state.libraryFolders.map((f) => [f.folder, f]));
  const descriptions: FolderDescription[] = folders.map(
    (folder) => described.get(folder) ?? { path: `${folder}/folder.yaml`, folder, namespace: '', goodFor: [] },
  );
  const matches = await matchPhrasings(
    index,
    query,
    descriptions.map((f, i) => folderPhrasings(f, byFolder.get(folders[i])!, options.notes)),
    options.meaning,
  );
  const out: FolderMatch[] = [];
  folders.forEach((folder, i) => {
    if (!clears(matches[i], FOLDER_MATCH)) return;
    const declared =
      descriptions[i].goodFor.length > 0 || (options.notes?.folderPhrasings(descriptions[i])?.length ?? 0) > 0;
    out.push({ folder, match: matches[i], pages: pages.filter((d) => d.path.startsWith(`${folder}/`)), declared });
  });
  return out.sort((a, b) => b.match.score - a.match.score);
}
