/**
 * An in-memory index of one workspace folder as the rows a store writes (rows.ts).
 *
 * Each section's terms and field counts come from the same function the indexer feeds the
 * postings index with (indexing/sectionTerms.ts `sectionFields`), so what a store holds is what
 * the in-memory index holds, term for term.
 */
import { sha256Hex } from '../chunking/ids';
import type { MeaningRows } from '../meaning/meaningRows';
import type { IndexState } from '../indexState';
import { anchorSampleOrdinals } from '../meaning/questionAnchors';
import { documentFields, sectionFields } from '../indexing/sectionTerms';
import { packShortLengths, unpackLengths } from '../lexical/fields';
import type { Doc } from '../model';
import type { StoredDoc, StoredMeaning, StoredSectionTerms, StoredWorkspace } from './rows';

/**
 * The rows of `state`, an index of exactly one folder (a store namespace is one folder, indexed
 * alone: paths and ids are then the folder's own, whichever other folders a store holds).
 * With `meaning` (Engine.meaningRows) each section carries its int8 windows.
 */
export function workspaceRows(state: IndexState, meaning?: MeaningRows | null): StoredWorkspace {
  if (state.folders.length !== 1)
    throw new Error(`a store namespace holds one workspace folder; this index holds ${state.folders.length}`);
  const docs: StoredWorkspace['docs'] = [];
  for (const doc of state.docs.values()) docs.push(docRows(state, doc, meaning ?? null));
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
    ...(meaning ? { meaning: storedMeaning(state, meaning, docs) } : {}),
  };
}

/** The namespace's meaning facts: model, dimension, anchors and the crowd sample's section ids. */
function storedMeaning(state: IndexState, meaning: MeaningRows, docs: StoredWorkspace['docs']): StoredMeaning {
  let dimension = 0;
  for (const { sections } of docs)
    for (const s of sections) if (s.vectors?.codes.length) dimension ||= s.vectors.codes[0].length;
  const sampleIds: string[] = [];
  for (const o of anchorSampleOrdinals(state.sections.length)) {
    const entry = state.sections[o];
    if (entry) sampleIds.push(entry.section.id);
  }
  return {
    model: meaning.model,
    dimension,
    anchors: { unrelated: meaning.anchors.unrelated, related: meaning.anchors.related },
    sampleIds,
  };
}

function docRows(
  state: IndexState,
  doc: Doc,
  meaning: MeaningRows | null,
): { doc: StoredDoc; sections: StoredSectionTerms[] } {
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
      textDigest: sectionTextDigest(section.text),
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
  const stored: Omit<StoredDoc, 'contentDigest'> = {
    ...rest,
    sectionCount: doc.sections.length,
    titleTerms,
    contextTerms,
  };
  const contentDigest = sha256Hex(JSON.stringify([stored, sections]));
  // After the digest: vectors are written by their own digest (the text embedded) and model.
  if (meaning) {
    for (const s of sections) {
      const ordinal = state.sectionOrdinalById.get(s.id)!;
      const windows = meaning.windowsOf(state.sections[ordinal]!);
      if (windows)
        s.vectors = {
          digest: windows.digest,
          codes: windows.windows.map((w) => w.codes),
          inverseNorms: windows.windows.map((w) => w.inverseNorm),
        };
    }
  }
  return { doc: { ...stored, contentDigest }, sections };
}

/** The digest a store writes of a section's text (rows.ts `textDigest`): '' for an empty text, which is no one's copy. */
function sectionTextDigest(text: string): string {
  return text ? sha256Hex(text) : '';
}
