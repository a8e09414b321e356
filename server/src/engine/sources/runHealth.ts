/**
 * Run health: the verdict of a repository's last CI run, read from a small file CI writes at the
 * repository root, `.wsctx/run-health.json`:
 *
 *   { "status": "succeeded", "finishedAt": "2026-11-28T09:14:00Z", "commit": "4f0c2e1", "url": "https://ci.example/run/812" }
 *
 * `status` is `succeeded` or `failed` (also accepted: success/passed/ok, failure/error/broken);
 * the other fields are optional and only shown. A missing file, an unreadable one or any other
 * status means unknown, which earns nothing (docs/ARCHITECTURE.md, workspace_context's contract: a term with the same value on every row
 * cannot order anything).
 */
import type { Problem } from '../model';

export type RunVerdict = 'succeeded' | 'failed' | 'unknown';

export interface RunHealth {
  verdict: RunVerdict;
  finishedAt?: string;
  commit?: string;
  url?: string;
  /** Workspace-relative path of the file it was read from. */
  path: string;
}

const SUCCEEDED = new Set(['succeeded', 'success', 'successful', 'passed', 'pass', 'ok', 'green']);
const FAILED = new Set(['failed', 'failure', 'fail', 'error', 'errored', 'broken', 'red']);

export function parseRunHealth(path: string, text: string): { health: RunHealth; problems: Problem[] } {
  // A file that cannot say a verdict counts as unknown, with one warning saying why.
  const unreadable = (code: string, message: string) => ({
    health: { verdict: 'unknown' as const, path },
    problems: [{ path, line: 1, severity: 'warning' as const, code, message }],
  });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return unreadable(
      'run-health.invalid-json',
      `Run health file is not valid JSON (${(error as Error).message}); the verdict counts as unknown.`,
    );
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return unreadable(
      'run-health.not-an-object',
      'Run health file must hold a JSON object with a "status" field; the verdict counts as unknown.',
    );
  }
  const record = data as Record<string, unknown>;
  const status = typeof record.status === 'string' ? record.status.trim().toLowerCase() : '';
  const verdict: RunVerdict = SUCCEEDED.has(status) ? 'succeeded' : FAILED.has(status) ? 'failed' : 'unknown';
  const problems: Problem[] = [];
  if (verdict === 'unknown') {
    problems.push({
      path,
      line: 1,
      severity: 'warning',
      code: 'run-health.unknown-status',
      message: `Field "status" is ${JSON.stringify(record.status)}; expected "succeeded" or "failed". The verdict counts as unknown.`,
    });
  }
  const health: RunHealth = { verdict, path };
  if (typeof record.finishedAt === 'string') health.finishedAt = record.finishedAt;
  if (typeof record.commit === 'string') health.commit = record.commit;
  if (typeof record.url === 'string') health.url = record.url;
  return { health, problems };
}
