/**
 * The expectations file in the editor: each served folder's `.wsctx/expectations.yaml` run against
 * the index after every pass (as `wsctx check` runs it), each failing page a warning on its own
 * line with why it did not come and the fix, each problem of the file an error on its line. The
 * file is read through the read guard (engine readExpectationsFile): one that is not a regular
 * file inside the served folders, or is too large, is an error on the file saying why.
 */
import * as nodePath from 'node:path';
import { type IndexState, EXPECTATIONS_FILE, readExpectationsFile, workspacePath } from '../../engine';
import type { Services } from '../../services/services';
import { runExpectations } from '../../tools/expectationsCheck';
import type { WorkspaceDiagnostic } from './diagnostics';

export async function expectationDiagnostics(services: Services, state: IndexState): Promise<WorkspaceDiagnostic[]> {
  const out: WorkspaceDiagnostic[] = [];
  const served = state.folders.map((f) => f.absPath);
  for (const folder of state.folders) {
    const path = workspacePath(state.folders, folder.name, EXPECTATIONS_FILE);
    const read = await readExpectationsFile(nodePath.join(folder.absPath, EXPECTATIONS_FILE), served, path);
    if (read.kind === 'absent') continue;
    if (read.kind === 'refused') {
      out.push({
        path,
        line: 1,
        severity: 'error',
        code: 'expectation.unreadable',
        message: `${read.message}; nothing in it is checked`,
        source: 'expectations',
      });
      continue;
    }
    const parsed = read.file;
    for (const p of parsed.problems) {
      out.push({
        path,
        line: p.line,
        severity: 'error',
        code: 'expectation.invalid',
        message: `${p.field ? `${p.field}: ` : ''}${p.message}; this entry is not checked`,
        source: 'expectations',
      });
    }
    const report = await runExpectations(services, parsed);
    for (const row of report.rows.filter((r) => !r.pass)) {
      const e = row.explanation;
      const asked = `${row.task ? 'the task ' : ''}"${row.question}"`;
      const where = row.task ? 'in the bundle' : `within ${row.within}`;
      const want =
        row.kind === 'expect'
          ? `${row.page} should come ${where} for ${asked}`
          : `${row.page} should not come ${where} for ${asked}`;
      const got = e ? `${e.summary} Fix: ${e.fix}` : row.got;
      out.push({
        path,
        line: row.line,
        severity: 'warning',
        code: 'expectation.failed',
        message: `${want}: ${row.got}. ${got}`,
        source: 'expectations',
      });
    }
  }
  return out;
}
