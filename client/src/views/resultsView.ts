/**
 * The results view: a question's passages, or a "Why not this page?" explanation, rendered in an
 * editor tab (a webview panel) that follows the theme. The Markdown comes from resultsMarkdown.ts;
 * VS Code's own Markdown engine (`markdown.api.render`, from the built-in Markdown extension)
 * renders it; viewPage.ts puts it in a page with a strict Content Security Policy.
 *
 * A click on one of the view's links arrives as a message naming the link (`wsctx-open:3`); the
 * view opens the place it registered under that name, and only a file inside a workspace folder.
 * The panel's title bar carries "Why not this page?" (package.json: `activeWebviewPanelId`).
 */
import { randomBytes } from 'node:crypto';
import { commands, Uri, ViewColumn, window, workspace, type Disposable, type WebviewPanel } from 'vscode';
import { SearchRequest } from '../../../shared/protocol';
import { RESULTS_VIEW_TYPE } from '../contributions';
import type { ServerConnection } from '../languageClient';
import { openSource, openWorkspacePath } from '../open';
import { splitSourceUri } from '../searchItems';
import {
  explanationMarkdown,
  explanationTitle,
  LinkTable,
  resultsMarkdown,
  resultsTitle,
  type ExplainView,
  type LinkTarget,
} from './resultsMarkdown';
import { markdownSourceHtml, viewPage } from './viewPage';

interface View {
  panel: WebviewPanel;
  kind: 'results' | 'explanation';
  /** The question the view answers (an explanation's too: "Why not this page?" asks it again). */
  question: string;
  links: LinkTable;
}

export class ResultsViews implements Disposable {
  private readonly views = new Set<View>();
  private front: View | undefined;

  constructor(private readonly connection: ServerConnection) {}

  /** Asks the question and shows its passages, each with its text and whole `why[]` table. */
  async showResults(question: string): Promise<void> {
    const result = await this.connection.client.sendRequest(SearchRequest.type, { question, withText: true });
    const links = new LinkTable();
    await this.open('results', resultsTitle(question), question, resultsMarkdown(result, links), links);
  }

  /** Shows an `explain_result` answer; `standing` is the first line of the tool's text. */
  async showExplanation(question: string, expected: string, output: ExplainView, standing: string): Promise<void> {
    const links = new LinkTable();
    await this.open(
      'explanation',
      explanationTitle(expected),
      question,
      explanationMarkdown(output, standing, links),
      links,
    );
  }

  /** The question of the results view in front of its group when it is the active editor. */
  activeQuestion(): string | undefined {
    const front = this.front;
    return front?.panel.active ? front.question : undefined;
  }

  /** The last question a results view showed, for the palette's "Why not this page?". */
  lastQuestion(): string | undefined {
    return this.front?.question ?? [...this.views].pop()?.question;
  }

  dispose(): void {
    for (const view of [...this.views]) view.panel.dispose();
  }

  private async open(
    kind: View['kind'],
    title: string,
    question: string,
    markdown: string,
    links: LinkTable,
  ): Promise<void> {
    const panel = window.createWebviewPanel(
      RESULTS_VIEW_TYPE,
      title,
      { viewColumn: ViewColumn.Active, preserveFocus: false },
      {
        enableScripts: true,
        enableCommandUris: false,
        enableForms: false,
        enableFindWidget: true,
        localResourceRoots: [],
      },
    );
    const view: View = { panel, kind, question, links };
    this.views.add(view);
    this.front = view;
    panel.onDidChangeViewState((event) => {
      if (event.webviewPanel.active) this.front = view;
    });
    panel.onDidDispose(() => {
      this.views.delete(view);
      if (this.front === view) this.front = undefined;
    });
    panel.webview.onDidReceiveMessage((message: unknown) => {
      const link = (message as { type?: unknown; link?: unknown } | null)?.link;
      if ((message as { type?: unknown })?.type !== 'open' || typeof link !== 'string') return;
      const target = links.resolve(link);
      if (target) void this.openTarget(target, panel.viewColumn);
    });
    panel.webview.html = viewPage(title, await this.render(markdown), randomBytes(16).toString('base64'));
  }

  /** HTML from VS Code's Markdown engine; the Markdown as text when the built-in extension is off. */
  private async render(markdown: string): Promise<string> {
    try {
      const html = await commands.executeCommand<string>('markdown.api.render', markdown);
      if (typeof html === 'string') return html;
      throw new Error('markdown.api.render answered no HTML');
    } catch (error) {
      this.connection.output.warn(
        `[results view] VS Code's Markdown engine did not render the view (${(error as Error).message}); showing its Markdown as text`,
      );
      return markdownSourceHtml(markdown);
    }
  }

  /** Opens a place the view linked to: only a file inside a workspace folder. */
  private async openTarget(target: LinkTarget, column: ViewColumn | undefined): Promise<void> {
    if ('path' in target) {
      if (!(await openWorkspacePath(target.path, target.line)))
        void window.showWarningMessage(`Workspace Context: ${target.path} is not in a workspace folder.`);
      return;
    }
    const file = Uri.parse(splitSourceUri(target.uri).file);
    if (file.scheme !== 'file' || !workspace.getWorkspaceFolder(file)) return;
    await openSource(target.uri, column);
  }
}
