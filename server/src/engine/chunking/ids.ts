/**
 * Document and section ids (docs/ARCHITECTURE.md, "Identity, commits, freshness").
 *
 * A document's id is the SHA-256 of its workspace-relative path; a section's id hashes the path
 * and the section's heading path, so ids survive edits elsewhere in the file and change only when
 * the file moves or the heading is renamed. Tools print the first 8 hex characters and accept any
 * unique prefix of 4 or more characters, or the full id.
 */
import { createHash } from 'node:crypto';

/** Length of the ids tools print. */
export const SHORT_ID_LENGTH = 8;
/** Shortest prefix a tool accepts. */
export const MIN_ID_PREFIX = 4;

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function documentId(path: string): string {
  return sha256Hex(path);
}

/**
 * Section id from the document path and heading path. `ordinal` separates sections whose heading
 * paths are identical within one document (two "## Example" under the same parent): the first
 * keeps the plain id, later ones add `#2`, `#3`...
 */
export function sectionId(path: string, headingPath: readonly string[], ordinal = 1): string {
  const key = `${path}#${headingPath.join(' > ')}`;
  return sha256Hex(ordinal > 1 ? `${key}#${ordinal}` : key);
}

export function shortId(id: string): string {
  return id.slice(0, SHORT_ID_LENGTH);
}

/** The result of resolving a user-supplied id or prefix against a set of ids. */
export type IdLookup =
  | { ok: true; id: string }
  | { ok: false; reason: 'too-short' | 'not-hex' | 'unknown' | 'ambiguous'; candidates: string[] };

/**
 * Resolves a full id or a unique prefix of at least {@link MIN_ID_PREFIX} hex characters.
 * Ambiguous prefixes return every candidate so the caller can list them.
 */
export function resolveIdPrefix(input: string, ids: Iterable<string>): IdLookup {
  const prefix = input.trim().toLowerCase();
  if (!/^[0-9a-f]+$/.test(prefix)) return { ok: false, reason: 'not-hex', candidates: [] };
  if (prefix.length < MIN_ID_PREFIX) return { ok: false, reason: 'too-short', candidates: [] };
  const candidates: string[] = [];
  for (const id of ids) {
    if (id === prefix) return { ok: true, id };
    if (id.startsWith(prefix)) candidates.push(id);
  }
  if (candidates.length === 1) return { ok: true, id: candidates[0] };
  return { ok: false, reason: candidates.length === 0 ? 'unknown' : 'ambiguous', candidates };
}
