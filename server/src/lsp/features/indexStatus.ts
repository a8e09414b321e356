/**
 * The index status the client's status item shows: phase, counts, `indexedAt`, the last pass, and
 * what is degraded with the reason.
 */
import type { IndexStatus } from '../../../../shared/protocol';
import { DOCS_UNREAD, coverageSummary, fromWorkspacePath, type Engine } from '../../engine';

export interface StatusExtras {
  /** True while a pass the server started is running. */
  updating: boolean;
  /** True while a pass in service has its diagnostics computed and published. */
  publishingDiagnostics?: boolean;
  /** Degraded flags known outside the engine (MCP endpoint off, restricted mode...). */
  degraded: { flag: string; reason: string }[];
}

export function indexStatus(engine: Engine | undefined, extras: StatusExtras): IndexStatus {
  if (!engine) {
    return {
      phase: 'cold',
      updating: false,
      indexedAt: null,
      folders: [],
      counts: null,
      lastPass: null,
      lastError: null,
      degraded: [
        { flag: 'no-folder', reason: 'No workspace folder is open; open a folder to index it.' },
        ...extras.degraded,
      ],
    };
  }
  const status = engine.status();
  const state = engine.current();
  const degraded = [...extras.degraded];
  if (status.lastError)
    degraded.unshift({ flag: 'index-failed', reason: `The last index pass failed: ${status.lastError}` });
  const unreadable = state?.problems.filter((p) => p.code === 'workspace.unreadable') ?? [];
  if (unreadable.length)
    degraded.unshift({
      flag: 'scope-unreadable',
      reason: `${unreadable.length} ${unreadable.length === 1 ? 'folder' : 'folders'} could not be read (${unreadable[0].path}).`,
    });
  return {
    phase: status.phase === 'cold' && extras.updating ? 'indexing' : status.phase,
    updating: extras.updating && !!state,
    indexedAt: status.indexedAt,
    folders: engine.folders.map((f) => f.name),
    counts: state
      ? {
          files: state.counts.files,
          documents: state.counts.documents,
          sections: state.counts.sections,
          entities: state.entities.length,
          edges: state.graph.edges().length,
          unresolvedEdges: state.counts.unresolvedEdges,
          problems: state.counts.problems,
          bySourceKind: { ...state.counts.bySourceKind },
        }
      : null,
    lastPass: status.lastPass
      ? {
          kind: status.lastPass.kind,
          filesRead: status.lastPass.filesRead,
          filesChanged: status.lastPass.filesChanged.length,
          filesRemoved: status.lastPass.filesRemoved.length,
          durationMs: Math.round(status.lastPass.durationMs),
        }
      : null,
    lastError: status.lastError,
    coverage: (state?.coverage ?? []).map((c) => ({
      folder: c.folder,
      files: c.files,
      read: c.read,
      summary: coverageSummary(c),
      warnings: (state?.problems ?? [])
        .filter((p) => p.code === DOCS_UNREAD && fromWorkspacePath(engine.folders, p.path)?.folder?.name === c.folder)
        .map((p) => p.message),
    })),
    ...(extras.publishingDiagnostics ? { publishingDiagnostics: true } : {}),
    embedding: status.meaning?.embedding
      ? {
          done: status.meaning.embedding.done,
          total: status.meaning.embedding.total,
          secondsLeft: status.meaning.embedding.secondsLeft,
          loadingModel: status.meaning.embedding.loadingModel,
        }
      : null,
    degraded,
  };
}
