/**
 * One JSON file of model answers kept across runs (beside the call log in the cache folder, never
 * in the workspace): the background steps' answers keyed by content digests, so a later process
 * asks the model nothing about pages that have not changed.
 *
 * Reading never throws (a missing, unreadable or other-format file is an empty store: it only
 * costs model calls); writing is atomic (a temporary file renamed over the old one) and never
 * throws either.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

interface Envelope<T> {
  format: number;
  answers: Record<string, T>;
}

/** The answers stored in `file` with format `format`, or none. */
export function readAnswerFile<T>(file: string | undefined, format: number): Map<string, T> {
  const answers = new Map<string, T>();
  if (!file) return answers;
  try {
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Envelope<T>>;
    if (stored.format !== format || typeof stored.answers !== 'object' || stored.answers === null) return answers;
    for (const [key, value] of Object.entries(stored.answers)) answers.set(key, value);
  } catch {
    // missing or unreadable: start empty; the next write replaces it
  }
  return answers;
}

/** Writes `answers` to `file` (format `format`); returns the error, if any, instead of throwing. */
export function writeAnswerFile<T>(
  file: string | undefined,
  format: number,
  answers: ReadonlyMap<string, T>,
): Error | undefined {
  if (!file) return undefined;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    const envelope: Envelope<T> = { format, answers: Object.fromEntries(answers) };
    fs.writeFileSync(temp, JSON.stringify(envelope));
    fs.renameSync(temp, file);
    return undefined;
  } catch (error) {
    return error as Error;
  }
}
