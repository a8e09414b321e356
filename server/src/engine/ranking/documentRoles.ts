/**
 * What a document is for, as far as the ranking contract cares (contract.ts): a release note
 * (release notes, changelogs, upgrade notes, release announcements) records what changed in a
 * version, and names settings in passing, often by their full dotted path; the maintained page
 * documents them. A question that asks about no version and no change is answered by the page,
 * so a release note's match counts RELEASE_NOTE_WEIGHT for it; a question about a version or a
 * change (`upgrading from 1.17 to 1.18`, `which release added ...`, `is X deprecated`) ranks
 * release notes like any page.
 *
 * Both tests read only what every state of a document has (its path and title; a question's
 * words), never its other sections, so a store's question state, which holds some of a
 * document's sections, decides as the whole index does.
 */
import type { Doc } from '../model';

/** Folders that hold release notes: `releases/`, `release-notes/`, `changelog/`, `upgrading/`, `whats-new/`. */
const RELEASE_FOLDERS = new Set([
  'releases',
  'release-notes',
  'release_notes',
  'releasenotes',
  'changelog',
  'changelogs',
  'changes',
  'upgrading',
  'upgrades',
  'upgrade-notes',
  'upgrade_notes',
  'whats-new',
  'news',
]);

/** A repository's changelog by convention: the file name in capitals (`CHANGELOG.md`, `RELEASE_NOTES.md`). */
const CHANGELOG_FILE = /^(?:CHANGELOG|CHANGES|HISTORY|NEWS|RELEASE[-_]?NOTES|RELEASES)$/;

/** A version: `1.18`, `v2.6.0`, `3.0-3.1`, or `v2` with its `v`. */
const VERSION = /(?:^|[^\w.])v?\d+\.\d+(?:\.\d+)*(?![\w.]*\w)|(?:^|[^\w])v\d+(?!\w)/i;

/** Words of a release note's title or path. */
const RELEASE_WORD = /releas|changelog|change log|upgrad|migrat|announc|what'?s[-_ ]new/i;

/**
 * True when the document is a release note: it sits in a release-notes folder, or is a
 * repository changelog by its name, or its title or file name names a version while its title or
 * path says what kind of page it is (`Release 1.18`, `Upgrading from v1.17 to v1.18`,
 * `Announcing GoReleaser v2.10`, `upgrading/3.0-3.1.md`). A page that documents a changelog
 * feature (`customization/publish/changelog.md`, "Changelog") is not one.
 */
export function isReleaseNote(doc: Pick<Doc, 'path' | 'title'>): boolean {
  const segments = doc.path.split('/');
  const file = segments[segments.length - 1] ?? '';
  const stem = file.replace(/\.[^.]*$/, '');
  if (segments.slice(0, -1).some((folder) => RELEASE_FOLDERS.has(folder.toLowerCase()))) return true;
  if (CHANGELOG_FILE.test(stem)) return true;
  return (
    (VERSION.test(doc.title) || VERSION.test(stem)) && (RELEASE_WORD.test(doc.title) || RELEASE_WORD.test(doc.path))
  );
}

/** What makes a question one about a version or a change. */
const ASKS_ABOUT_RELEASES = [
  // A version number (`1.18`, `v2.10`, `v1`).
  /(?:^|[^\w.])v?\d+\.\d+(?![\w.]*\w)|(?:^|[^\w])v\d+(?!\w)/i,
  // What changed: release notes, changelogs, upgrades, migrations, deprecations.
  /\b(?:changelogs?|release notes?|upgrad(?:e|es|ed|ing)|migrat(?:e|es|ed|ing|ion|ions)|deprecat\w*|breaking changes?|what'?s new|what changed|changed in)\b/i,
  // When something arrived or went: "which release added", "since version", "introduced in".
  /\bwhich\b[^?.!]{0,40}\b(?:release|version)s?\b|\b(?:release|version)s?\s+(?:added|introduced|removed|dropped)\b|\b(?:introduced|added|removed) in\b|\bsince (?:version|release)\b/i,
];

/** True when the question asks about a version or a change, so release notes rank as any page. */
export function asksAboutReleases(question: string): boolean {
  return ASKS_ABOUT_RELEASES.some((re) => re.test(question));
}
