/**
 * The memory a namespace takes in a reader that answers from memory (memoryReader.ts), known
 * before it is loaded: from the sizes its last write recorded (rows.ts NamespaceSizes), so
 * `serve --store` can say what it will hold and refuse past `--max-memory` before it reads a byte.
 *
 * Each figure is what the loaded index keeps per item (loadedNamespace.ts): the postings index's
 * typed arrays (two uint32 per posting, two per section), the section and entry objects and their
 * strings, each document's object and its title and context term sets, the dictionary, the
 * catalog and its graph, and the vectors' int8 codes with their labels. The constants were
 * measured by loading generated namespaces and Argo CD's documentation and reading the heap
 * before and after (bench/benchStore.ts prints estimate and measurement side by side); at 100k
 * sections it was within about 15% of the resident memory a reader grew by, either way.
 */
import type { NamespaceSizes } from './rows';

/** Bytes per section: its Section and SectionEntry objects, id and heading strings, map slots and lengths. */
const PER_SECTION = 700;
/** Bytes per character of section text (V8 keeps ASCII text one byte a character; others take two). */
const PER_TEXT_CHAR = 1.15;
/** Bytes per posting: an ordinal and its packed field counts (uint32 each), with slack for the delta. */
const PER_POSTING = 9;
/** Bytes per dictionary term: the string, its map slot and its offset. */
const PER_TERM = 120;
/** Bytes per document besides its JSON: its object, term sets and map slots. */
const PER_DOC = 900;
/** Bytes per byte of a document's stored JSON, as objects on the heap. */
const PER_DOC_BYTE = 2.5;
/** Bytes per catalog entity or relation (objects, and the graph's indexes). */
const PER_CATALOG_ITEM = 1500;
/** Bytes per file's git facts. */
const PER_COMMIT = 250;
/** Bytes per vector window besides its codes: the norm, the label maps. */
const PER_WINDOW = 48;

/** The bytes namespace sizes `s` will take loaded. */
export function estimateNamespaceBytes(s: NamespaceSizes): number {
  return Math.round(
    s.sections * PER_SECTION +
      s.textChars * PER_TEXT_CHAR +
      s.postings * PER_POSTING +
      s.terms * PER_TERM +
      s.docs * PER_DOC +
      s.docBytes * PER_DOC_BYTE +
      (s.entities + s.relations) * PER_CATALOG_ITEM +
      s.commits * PER_COMMIT +
      s.windows * (s.dimension + PER_WINDOW),
  );
}

/** A byte count as `--max-memory` takes it: a number with an optional unit (B, KB, MB, GB, TB; powers of 1024). */
export function parseByteSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]i?b?|b)?\s*$/i.exec(text);
  if (!m) return undefined;
  const unit = (m[2] ?? 'b').toLowerCase()[0];
  const power = { b: 0, k: 1, m: 2, g: 3, t: 4 }[unit as 'b' | 'k' | 'm' | 'g' | 't'];
  return Math.round(Number(m[1]) * 1024 ** power);
}

/** Bytes as people read them: 118 MB, 1.4 GB. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${Math.round(bytes / 1024 ** 2)} MB`;
  return bytes <= 0 ? '0 KB' : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
