/**
 * An in-memory index of one workspace folder as the rows a store writes (rows.ts).
 *
 * Each section's terms and field counts come from the same function the indexer feeds the
 * postings index with (indexing/sectionTerms.ts `sectionFields`), so what a store holds is what
 * the in-memory index holds, term for term.
 */
import { sha256Hex } from '../chunking/ids';
import type { IndexState } from '../indexState';
import { documentFields, sectionFields } from '../indexing/sectionTerms';
import { packShortLengths, unpackLengths } from '../lexical/fields';
import type { Doc } from '../model';
import type { StoredDoc, StoredSectionTerms, StoredWorkspace } from './rows';

/**
 * The rows of `state`, an index of exactly one folder (a store namespace is one folder, indexed
 * alone: paths and ids are then the folder's own, whichever other folders a store holds).
 */
export function workspaceRows(state: IndexState): StoredWorkspace {
  if (state.folders.length !== 1) throw new Error(`a store namespace holds one workspace folder; this index holds ${state.folders.length}`);
  const docs: StoredWorkspace['docs'] = [];
  for (const doc of state.docs.values()) docs.push(docRows(state, doc));
  const paths = new Set(docs.map((d) => d.doc.path));
  return {
    info: {
      folder: state.folders[0],
      indexedAt: state.indexedAt,
      repos: [...state.repos],
      runHealth: [...state.runHealth],
      problems: [...state.problems],
      counts: state.counts,
      libraryFolders: [...state.libraryFolders],
      packs: [...state.packs],
    },
    entities: [...state.entities],
    relations: [...state.relations],
    // Only what passages cite: the commit facts of indexed documents.
    commits: [...state.commits].filter(([path]) => paths.has(path)),
    docs,
  };
}

function docRows(state: IndexState, doc: Doc): { doc: StoredDoc; sections: StoredSectionTerms[] } {
  const fields = documentFields(doc);
  const sections: StoredSectionTerms[] = [];
  doc.sections.forEach((section, position) => {
    // A section the index does not hold (none today) is not a candidate in memory either.
    if (!state.sectionOrdinalById.has(section.id)) return;
    const { counts, lengths } = sectionFields(section, doc, fields);
    const shortLengths = packShortLengths(lengths);
    const capped = unpackLengths(lengths.body, shortLengths);
    sections.push({
      id: section.id,
      docId: doc.id,
      position,
      headingPath: section.headingPath,
      level: section.level,
      startLine: section.startLine,
      endLine: section.endLine,
      text: section.text,
      ...(section.entityRefs ? { entityRefs: section.entityRefs } : {}),
      bodyLength: lengths.body,
      shortLengths,
      headingLength: capped.heading,
      titleLength: capped.title,
      contextLength: capped.context,
      terms: [...counts.keys()],
      packed: [...counts.values()],
    });
  });
  const { sections: _sections, ...rest } = doc;
  const titleTerms = [...(state.titleTerms.get(doc.id) ?? [])];
  const contextTerms = [...(state.contextTerms.get(doc.id) ?? [])];
  const stored: Omit<StoredDoc, 'contentDigest'> = { ...rest, sectionCount: doc.sections.length, titleTerms, contextTerms };
  const contentDigest = sha256Hex(JSON.stringify([stored, sections]));
  return { doc: { ...stored, contentDigest }, sections };
}
