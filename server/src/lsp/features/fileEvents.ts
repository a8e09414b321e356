/**
 * File events (`workspace/didChangeWatchedFiles`) -> the paths the engine should update.
 *
 * The client watches the whole workspace, so most events are about files the index never reads
 * (source code, build output). Those must not reach the engine: a path it has never seen makes it
 * walk the workspace again. Forwarded: files the index holds, new or deleted files that could be
 * sources (Markdown, YAML, JSON, Cursor rules) or `.gitignore` files, and for a deleted folder the
 * indexed files under it.
 *
 * Before the first state is in service (a snapshot still loading) nothing says which files the
 * index holds, so every event in a served folder is forwarded: a warm start asks git while it
 * loads the snapshot, and an edit after git's look reaches the first pass only this way
 * (docs/ARCHITECTURE.md, "Warm start").
 */
import { FileChangeType, type FileEvent } from 'vscode-languageserver';
import type { IndexState } from '../../engine';
import type { DocumentStore } from './documents';

/** Names of files that can become a source when created (the default globs' extensions). */
const POSSIBLE_SOURCE = /(\.(md|mdc|ya?ml|json)|(^|\/)\.gitignore)$/i;
const NEVER = /(^|\/)(\.git|node_modules)(\/|$)/;

export interface RoutedEvents {
  /** Workspace-relative paths for `engine.update`, in event order, without repeats. */
  enginePaths: string[];
  /** True when any event is in a served folder (the mention index reads more files than the engine). */
  inWorkspace: boolean;
}

export function routeFileEvents(
  changes: readonly FileEvent[],
  documents: DocumentStore,
  state: IndexState | undefined,
): RoutedEvents {
  const paths: string[] = [];
  let inWorkspace = false;
  const add = (path: string) => {
    if (!paths.includes(path)) paths.push(path);
  };
  for (const change of changes) {
    const path = documents.pathOf(change.uri);
    if (path === null || NEVER.test(path)) continue;
    inWorkspace = true;
    if (!state || state.fileDigests.has(path)) {
      add(path);
      continue;
    }
    if (change.type !== FileChangeType.Changed && POSSIBLE_SOURCE.test(path)) {
      add(path);
      continue;
    }
    if (change.type === FileChangeType.Deleted && state) {
      const prefix = path === '' ? '' : `${path}/`;
      for (const known of state.fileDigests.keys()) if (known.startsWith(prefix)) add(known);
    }
  }
  return { enginePaths: paths, inWorkspace };
}
