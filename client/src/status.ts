/**
 * The index on screen: a status bar item (always there) and a language status item (beside the
 * language of catalog, Markdown and results documents), both worded by statusText.ts from what the
 * language server pushes (index status, pass progress, MCP endpoint, client state) and from the
 * diagnostics the language client shows in the Problems panel, counted as the panel counts them.
 */
import {
  DiagnosticSeverity,
  l10n,
  languages,
  LanguageStatusSeverity,
  MarkdownString,
  StatusBarAlignment,
  window,
  workspace,
  type Disposable,
} from 'vscode';
import { RESULTS_SCHEME } from '../../shared/protocol';
import { Commands, LANGUAGE_STATUS_ITEM_ID, STATUS_BAR_ITEM_ID } from './contributions';
import type { ServerConnection } from './languageClient';
import { describeStatus, type PassProgress, type ProblemCounts, type StatusView } from './statusText';

/** Wait after a burst of diagnostics changes before counting them again. Default 200 ms. */
const PROBLEMS_RECOUNT_MS = 200;

export class StatusItems implements Disposable {
  private readonly bar = window.createStatusBarItem(STATUS_BAR_ITEM_ID, StatusBarAlignment.Left, -100);
  private readonly language = languages.createLanguageStatusItem(LANGUAGE_STATUS_ITEM_ID, [
    { language: 'yaml' },
    { language: 'markdown' },
    { scheme: RESULTS_SCHEME },
  ]);
  private readonly subscriptions: Disposable[];
  private progress: PassProgress | undefined;
  private problems: ProblemCounts | undefined;
  private recount: NodeJS.Timeout | undefined;
  current: StatusView | undefined;

  constructor(private readonly connection: ServerConnection) {
    this.bar.name = l10n.t('Workspace Context index');
    this.bar.command = Commands.showStatus;
    this.language.name = l10n.t('Workspace Context index');
    this.language.command = { title: l10n.t('Details'), command: Commands.showStatus };
    this.subscriptions = [
      connection.onIndexStatus(() => this.render()),
      connection.onMcpEndpoint(() => this.render()),
      connection.onState(() => this.render()),
      connection.onProgress((progress) => {
        this.progress = progress;
        this.render();
      }),
      workspace.onDidGrantWorkspaceTrust(() => this.render()),
      languages.onDidChangeDiagnostics(() => {
        clearTimeout(this.recount);
        this.recount = setTimeout(() => {
          this.problems = this.countProblems();
          this.render();
        }, PROBLEMS_RECOUNT_MS);
      }),
    ];
    this.render();
    this.bar.show();
  }

  render(): void {
    const view = describeStatus({
      status: this.connection.latestStatus,
      client: this.connection.state,
      trusted: workspace.isTrusted,
      progress: this.progress,
      mcp: this.connection.latestEndpoint,
      clientError: this.connection.error,
      problems: this.problems,
    });
    this.current = view;
    const tooltip = new MarkdownString(view.tooltip.join('\n'));
    tooltip.isTrusted = false;
    this.bar.text = view.text;
    this.bar.tooltip = tooltip;
    this.bar.accessibilityInformation = { label: view.accessibilityLabel };
    this.language.text = view.shortText;
    this.language.detail = view.detail;
    this.language.busy = view.busy;
    this.language.accessibilityInformation = { label: view.accessibilityLabel };
    this.language.severity =
      view.severity === 'error'
        ? LanguageStatusSeverity.Error
        : view.severity === 'warning'
          ? LanguageStatusSeverity.Warning
          : LanguageStatusSeverity.Information;
  }

  /** The language client's diagnostics by severity: what the Problems panel lists from this extension. */
  private countProblems(): ProblemCounts | undefined {
    const collection = this.connection.client.diagnostics;
    if (!collection) return undefined;
    const counts: ProblemCounts = { error: 0, warning: 0, info: 0 };
    collection.forEach((_uri, diagnostics) => {
      for (const d of diagnostics) {
        if (d.severity === DiagnosticSeverity.Error) counts.error++;
        else if (d.severity === DiagnosticSeverity.Warning) counts.warning++;
        else if (d.severity === DiagnosticSeverity.Information) counts.info++;
        // Hints are not listed in the Problems panel.
      }
    });
    return counts;
  }

  dispose(): void {
    clearTimeout(this.recount);
    for (const s of this.subscriptions) s.dispose();
    this.bar.dispose();
    this.language.dispose();
  }
}
