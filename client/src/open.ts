/**
 * Opening what the server points at: a passage's `file:` URI with `#Lstart-Lend`, a
 * workspace-relative `path:line`, or an LSP range. Paths the engine prints are relative to a
 * workspace folder (with several folders, the first that holds the file wins).
 */
import { Position, Range, Selection, Uri, window, workspace, type TextEditor, type ViewColumn } from 'vscode';
import type { WireRange } from '../../shared/protocol';
import { isWorkspaceRelativePath } from './commandArgs';
import { splitSourceUri } from './searchItems';

/** Opens `uri` (`file:...#L35-L45`) with the passage's first line at the cursor (in `column`, default the active one). */
export async function openSource(uri: string, column?: ViewColumn): Promise<TextEditor> {
  const { file, startLine, endLine } = splitSourceUri(uri);
  const start = new Position(Math.max(0, startLine - 1), 0);
  const editor = await window.showTextDocument(Uri.parse(file), {
    preview: true,
    selection: new Range(start, start),
    ...(column !== undefined ? { viewColumn: column } : {}),
  });
  editor.revealRange(new Range(start, new Position(Math.max(0, endLine - 1), 0)));
  return editor;
}

/** Opens an LSP location (0-based range) and selects it. */
export async function openRange(uri: string, range: WireRange): Promise<TextEditor> {
  const selection = new Selection(range.start.line, range.start.character, range.end.line, range.end.character);
  return window.showTextDocument(Uri.parse(uri), { preview: true, selection });
}

/** Opens a workspace-relative path at a 1-based line; undefined when no folder holds it. */
export async function openWorkspacePath(relativePath: string, line: number): Promise<TextEditor | undefined> {
  const uri = await resolveWorkspacePath(relativePath);
  if (!uri) return undefined;
  const at = new Position(Math.max(0, line - 1), 0);
  return window.showTextDocument(uri, { preview: true, selection: new Range(at, at) });
}

export async function resolveWorkspacePath(relativePath: string): Promise<Uri | undefined> {
  // Only a path that stays inside a folder (no `..`, no absolute path, no URI): Uri.joinPath
  // would follow `..` out of it.
  if (!isWorkspaceRelativePath(relativePath)) return undefined;
  for (const folder of workspace.workspaceFolders ?? []) {
    const candidate = Uri.joinPath(folder.uri, ...relativePath.split('/'));
    try {
      await workspace.fs.stat(candidate);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}
