/**
 * Which library documents the tools may serve: published and not expired ("ready", the library tools' contract (docs/ARCHITECTURE.md)).
 * Drafts and expired pages stay in the index (the editor flags them) but no library tool ever
 * returns them.
 */
import { type Doc, isExpired } from '../../engine';

export type HiddenReason = 'draft' | 'expired';

/** `YYYY-MM-DD` of `now` in UTC: the day expiry dates are compared with. */
export function dayOf(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Why a library document is not served on `today` (`YYYY-MM-DD`), or null when it is ready. */
export function hiddenReason(doc: Doc, today: string): HiddenReason | null {
  const library = doc.library;
  if (!library) return null;
  if (library.status === 'draft') return 'draft';
  if (isExpired(library, today)) return 'expired';
  return null;
}

/** True for a library document that is published and unexpired on `today`. */
export function isReady(doc: Doc, today: string): boolean {
  return doc.sourceKind === 'library' && hiddenReason(doc, today) === null;
}
