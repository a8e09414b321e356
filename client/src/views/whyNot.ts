/**
 * "Why not this page?": asks `explain_result` why the page a user expected did not come for a
 * question, and shows the answer in the results view (the fix first). Run from a results view's
 * title bar it asks that view's question again; from the palette it asks for the question, the
 * last one asked by default. The page is asked for too, prefilled with the last file the user had
 * open in an editor (a results view is not one), as a workspace-relative path.
 */
import { window, workspace, type Disposable, type TextEditor, type Uri } from 'vscode';
import type { ExplainView } from './resultsMarkdown';
import type { ResultsViews } from './resultsView';

export type CallTool = <T>(name: string, args: Record<string, unknown>) => Promise<{ output: T; text: string }>;

/** The last file, inside a workspace folder, that was the active text editor's. */
export class LastFile implements Disposable {
  private last: Uri | undefined;
  private readonly subscription: Disposable;

  constructor() {
    this.remember(window.activeTextEditor);
    if (!this.last) for (const editor of window.visibleTextEditors) this.remember(editor);
    this.subscription = window.onDidChangeActiveTextEditor((editor) => this.remember(editor));
  }

  /** Its workspace-relative path as answers print it (with the folder's name when there are several), or ''. */
  relativePath(): string {
    const folders = workspace.workspaceFolders ?? [];
    return this.last ? workspace.asRelativePath(this.last, folders.length > 1) : '';
  }

  dispose(): void {
    this.subscription.dispose();
  }

  private remember(editor: TextEditor | undefined): void {
    const uri = editor?.document.uri;
    if (uri?.scheme === 'file' && workspace.getWorkspaceFolder(uri)) this.last = uri;
  }
}

export async function whyNot(
  views: ResultsViews,
  lastFile: LastFile,
  callTool: CallTool,
  selection: () => string,
): Promise<void> {
  const question =
    views.activeQuestion() ??
    (await window.showInputBox({
      title: 'Why not this page?',
      prompt: 'The question that was asked',
      value: selection() || views.lastQuestion() || '',
    }));
  if (!question?.trim()) return;
  const expected = await window.showInputBox({
    title: `Why not this page? "${question.trim()}"`,
    prompt: 'The page you expected: its path as answers print it, a section id, or an entity ref',
    value: lastFile.relativePath(),
  });
  if (!expected?.trim()) return;
  const { output, text } = await callTool<ExplainView>('explain_result', {
    question: question.trim(),
    expected: expected.trim(),
  });
  await views.showExplanation(question.trim(), expected.trim(), output, text.split('\n')[0]);
}
