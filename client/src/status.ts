/**
 * The index on screen: a status bar item (always there) and a language status item (beside the
 * language of catalog, Markdown and results documents), both worded by statusText.ts from what the
 * language server pushes: index status, pass progress, MCP endpoint, client state.
 */
import {
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
import { describeStatus, type PassProgress, type StatusView } from './statusText';

export class StatusItems implements Disposable {
  private readonly bar = window.createStatusBarItem(STATUS_BAR_ITEM_ID, StatusBarAlignment.Left, -100);
  private readonly language = languages.createLanguageStatusItem(LANGUAGE_STATUS_ITEM_ID, [
    { language: 'yaml' },
    { language: 'markdown' },
    { scheme: RESULTS_SCHEME },
  ]);
  private readonly subscriptions: Disposable[];
  private progress: PassProgress | undefined;
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

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.bar.dispose();
    this.language.dispose();
  }
}
