/**
 * The rclone pages the copy rule's tests rank (contract 2026-12-06.5, scoredCandidates.ts
 * liftOneCopy), in memory (meaningCopies.test.ts) and from a store (test/store/storeCopies.test.ts):
 * real pages of rclone's docs (bench/corpora/rclone, MIT, see its SOURCE.txt). Ten generated
 * command pages repeat the VFS sections ("Fingerprinting" among them) word for word.
 */
import { corpusDocsRepository } from './rankingFixture';

/** The generated command pages, each repeating the VFS sections. */
export const COMMAND_PAGES = [
  'rclone_mount',
  'rclone_nfsmount',
  'rclone_serve_dlna',
  'rclone_serve_docker',
  'rclone_serve_ftp',
  'rclone_serve_http',
  'rclone_serve_nfs',
  'rclone_serve_s3',
  'rclone_serve_sftp',
  'rclone_serve_webdav',
].map((c) => `commands/${c}.md`);
// The page that answers r022 (`--ignore-existing`), and pages on other subjects, so that the
// question's crowd sits as it does over more than the copies.
const OTHER_PAGES = ['docs.md', 'filtering.md', 'bisync.md', 'faq.md', 'union.md', 'crypt.md'];

/** The dev suite's paraphrase r022, which MiniLM reads close to the repeated "Fingerprinting". */
export const PARAPHRASE =
  "Leave whatever is already on the other side alone, even if my local copy is newer; only send what's missing.";
/** A question every copy of "Fingerprinting" holds whole. */
export const FINGERPRINTS = 'fingerprinting modtime hash slow backends';

/** A git repository holding the command pages and the other pages. */
export function copiesRepository(): string {
  return corpusDocsRepository('rclone', [...COMMAND_PAGES, ...OTHER_PAGES]);
}
