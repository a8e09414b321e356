/**
 * A user's own private notes: Markdown pages in a folder outside the workspace that the host
 * configures (the user's notes folder). They are searched like library pages, but only for the
 * user's own connections (the host says which connections are), and come back labelled as the
 * user's own; nobody else's connection ever gets them.
 *
 * Pages are read with the library's parser (front matter, sections) under the virtual path
 * `~notes/<path in the folder>`, so their ids never collide with workspace pages. Drafts and
 * expired notes are skipped like library pages. Files are re-read when their size or time changes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { InputError, type Doc, readLibraryPage, decodeText, readGuardedBytesSync } from '../../engine';
import type { LibrarySection } from '../view/libraryView';
import { hiddenReason } from '../view/readiness';

/** Prefix of the paths notes are shown under. */
export const NOTES_PREFIX = '~notes/';
/** Notes larger than this are skipped. Default 1 MiB. */
export const MAX_NOTE_BYTES = 1024 * 1024;
/** Most notes read. Default 2,000. */
export const MAX_NOTES = 2_000;
/** Ordering offset that puts notes after every library section on ties. */
const ORDER_OFFSET = 1e9;

export interface PrivateNotesOptions {
  /** Absolute path of the user's notes folder (outside the workspace). */
  dir: string;
  /** True for a connection of the user who owns the notes. */
  isOwnConnection: (sessionId: string) => boolean;
}

export class PrivateNotes {
  readonly dir: string;
  private readonly isOwn: (sessionId: string) => boolean;
  private readonly cache = new Map<string, { stamp: string; doc: Doc | null }>();

  constructor(options: PrivateNotesOptions) {
    this.dir = path.resolve(options.dir);
    this.isOwn = options.isOwnConnection;
  }

  /** The folder's real path: notes are read through the read guard with it as their only root. */
  private realDir(): string {
    try {
      return fs.realpathSync(this.dir);
    } catch {
      return this.dir;
    }
  }

  /** True when `sessionId` is one of the owner's connections. */
  ownedBy(sessionId: string | undefined): boolean {
    return sessionId !== undefined && this.isOwn(sessionId);
  }

  /** The ready notes on `today` (`YYYY-MM-DD`), in path order. Never throws. */
  docs(today: string): Doc[] {
    const files = listMarkdown(this.dir);
    const seen = new Set<string>();
    const docs: Doc[] = [];
    for (const abs of files.slice(0, MAX_NOTES)) {
      const rel = path.relative(this.dir, abs).split(path.sep).join('/');
      seen.add(rel);
      let stat: fs.Stats;
      try {
        stat = fs.statSync(abs);
      } catch {
        continue;
      }
      if (stat.size > MAX_NOTE_BYTES) continue;
      const stamp = `${stat.size}:${stat.mtimeMs}`;
      let cached = this.cache.get(rel);
      if (!cached || cached.stamp !== stamp) {
        cached = { stamp, doc: readNote(this.realDir(), abs, rel) };
        this.cache.set(rel, cached);
      }
      if (cached.doc && hiddenReason(cached.doc, today) === null) docs.push(cached.doc);
    }
    for (const rel of [...this.cache.keys()]) if (!seen.has(rel)) this.cache.delete(rel);
    return docs;
  }

  /** The notes' sections as library sections (no postings ordinal), after every library section in order. */
  sections(docs: readonly Doc[]): LibrarySection[] {
    const out: LibrarySection[] = [];
    for (const doc of docs)
      doc.sections.forEach((section, position) =>
        out.push({ section, doc, ordinal: -1, position, order: ORDER_OFFSET + out.length }),
      );
    return out;
  }
}

/**
 * The notes folder `dir` (absolute) when it may serve as one: an existing folder that is neither
 * inside a served folder nor holding one (notes are the user's own; the workspace's pages are
 * indexed for everyone). Both sides are compared after following symbolic links. Throws
 * {@link InputError} naming `field` (the flag or setting it came from) otherwise.
 */
export function checkNotesFolder(dir: string, servedFolders: readonly string[], field: string): string {
  const abs = path.resolve(dir);
  let real: string;
  try {
    real = fs.realpathSync(abs);
    if (!fs.statSync(real).isDirectory()) throw new Error('not a folder');
  } catch {
    throw new InputError(`${field}: ${abs} is not a folder`);
  }
  for (const served of servedFolders) {
    let root: string;
    try {
      root = fs.realpathSync(served);
    } catch {
      root = path.resolve(served);
    }
    if (isWithin(real, root))
      throw new InputError(
        `${field}: ${abs} is inside the served folder ${served}; private notes must live outside the workspace (everything in it is indexed for everyone who reads it)`,
      );
    if (isWithin(root, real))
      throw new InputError(
        `${field}: ${abs} holds the served folder ${served}; private notes must live outside the workspace`,
      );
  }
  return abs;
}

function isWithin(inner: string, outer: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** True for a page read from private notes. */
export function isPrivateNote(doc: Doc): boolean {
  return doc.path.startsWith(NOTES_PREFIX);
}

/**
 * One note, read through the read guard (readGuard.ts) with the notes folder as its only root: a
 * link in the folder to anywhere else, a FIFO or an oversized file is not read.
 */
function readNote(root: string, abs: string, rel: string): Doc | null {
  const read = readGuardedBytesSync(abs, [root], MAX_NOTE_BYTES);
  if (!read.ok) return null;
  const { text } = decodeText(read.bytes);
  // The library parser reads pages under a `.context` folder; the virtual path keeps ids apart from the workspace's.
  const { doc } = readLibraryPage({ path: `~private-notes/.context/notes/${rel}`, text });
  if (!doc) return null;
  return { ...doc, path: `${NOTES_PREFIX}${rel}`, library: { ...doc.library!, namespace: '~notes', file: undefined } };
}

function listMarkdown(dir: string): string[] {
  const out: string[] = [];
  const walk = (current: string, depth: number) => {
    if (depth > 8) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(current, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const abs = path.join(current, entry.name);
      if (entry.isDirectory()) walk(abs, depth + 1);
      else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) out.push(abs);
    }
  };
  walk(dir, 0);
  return out;
}
