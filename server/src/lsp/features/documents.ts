/**
 * Documents as the features see them: a URI, its workspace-relative path when it lies in a served
 * folder, and its text (the editor's buffer when the document is open, else the file on disk).
 * Also the conversions between the engine's 1-based lines and LSP's 0-based positions.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Location, Range } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  type WorkspaceFolder,
  DEFAULT_MAX_FILE_SIZE,
  fromWorkspacePath,
  toWorkspacePath,
  WorkspaceReader,
} from '../../engine';

/** The open documents (vscode-languageserver's `TextDocuments`). */
export interface OpenDocuments {
  get(uri: string): TextDocument | undefined;
  all(): TextDocument[];
}

export class DocumentStore {
  constructor(
    private readonly open: OpenDocuments,
    private readonly folders: () => readonly WorkspaceFolder[],
  ) {}

  /** Absolute file path of a `file:` URI, or null for other schemes. */
  absPathOf(uri: string): string | null {
    if (!uri.startsWith('file:')) return null;
    try {
      return fileURLToPath(uri);
    } catch {
      return null;
    }
  }

  /** Workspace-relative path of a URI, or null when it lies outside every served folder. */
  pathOf(uri: string): string | null {
    const abs = this.absPathOf(uri);
    return abs === null ? null : toWorkspacePath(this.folders(), abs);
  }

  /** `file:` URI of a workspace-relative path, or null when no served folder holds it. */
  uriOf(path: string): string | null {
    const resolved = fromWorkspacePath(this.folders(), path);
    return resolved ? pathToFileURL(resolved.absPath).href : null;
  }

  /** The open document's text, else the file's text on disk, else null. */
  async text(uri: string): Promise<string | null> {
    const open = this.open.get(uri);
    if (open) return open.getText();
    const abs = this.absPathOf(uri);
    if (abs === null) return null;
    return this.readDisk(abs);
  }

  /** Text of a workspace-relative path as saved on disk (what the index read), or null. */
  async fileText(path: string): Promise<string | null> {
    const resolved = fromWorkspacePath(this.folders(), path);
    if (!resolved) return null;
    return this.readDisk(resolved.absPath);
  }

  /** A file's text through the read guard: inside a served folder, a regular file, capped. */
  private async readDisk(abs: string): Promise<string | null> {
    const folders = this.folders();
    if (this.reader?.folders !== folders) this.reader = new WorkspaceReader(folders, DEFAULT_MAX_FILE_SIZE);
    const read = await this.reader.readText(abs);
    return read.ok ? read.text : null;
  }
  private reader: WorkspaceReader | undefined;

  /** Text of a workspace-relative path (open buffer first). */
  async textOfPath(path: string): Promise<string | null> {
    const uri = this.uriOf(path);
    return uri ? this.text(uri) : null;
  }

  /** Open documents that lie in a served folder, with their paths and texts. */
  openInWorkspace(): { uri: string; path: string; text: string }[] {
    const out: { uri: string; path: string; text: string }[] = [];
    for (const doc of this.open.all()) {
      const path = this.pathOf(doc.uri);
      if (path !== null) out.push({ uri: doc.uri, path, text: doc.getText() });
    }
    return out;
  }
}

/** LSP range of a 1-based line and 1-based columns (end exclusive). */
export function lineRange(line: number, column = 1, endColumn = column): Range {
  return { start: { line: line - 1, character: column - 1 }, end: { line: line - 1, character: endColumn - 1 } };
}

/** The range of a whole line's content (from its first non-blank character to its end). */
export function contentRange(text: string | null, line: number, column?: number): Range {
  const lineText = text?.split('\n')[line - 1]?.replace(/\r$/, '') ?? '';
  const start = column !== undefined ? column - 1 : Math.max(0, lineText.length - lineText.trimStart().length);
  return {
    start: { line: line - 1, character: start },
    end: { line: line - 1, character: Math.max(start, lineText.length) },
  };
}

export function location(uri: string, range: Range): Location {
  return { uri, range };
}
