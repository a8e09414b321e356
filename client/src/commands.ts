/**
 * The commands: search, the results view, "Why not this page?", expand an entity, table of
 * contents, re-index, diagnostics, index status, MCP endpoint restart, output; plus the two the
 * server's hovers and code lenses run (`ClientCommands`). Each asks the language server (custom
 * requests, or a tool by name through `CallToolRequest`) and shows the answer in a QuickPick, the
 * results view or an editor; failures are logged and shown with a way to the log.
 */
import {
  commands,
  ProgressLocation,
  QuickPickItemKind,
  ThemeIcon,
  window,
  workspace,
  type Disposable,
  type QuickInputButton,
  type QuickPickItem,
} from 'vscode';
import { WorkspaceSymbolRequest } from 'vscode-languageclient/node';
import { SETTINGS_PREFIX } from '../../shared/ids';
import {
  CallToolRequest,
  DiagnosticsReportRequest,
  ReindexRequest,
  RestartMcpEndpointRequest,
  type ExpandEntityArgs,
} from '../../shared/protocol';
import { normalizeSettings, SETTING_KEYS } from '../../shared/settings';
import { contextForChange } from './changeContext';
import { checkEntityDocsArgs, checkExpandArgs } from './commandArgs';
import { Commands } from './contributions';
import type { ServerConnection } from './languageClient';
import { openRange, openWorkspacePath } from './open';
import {
  diagnosticsRows,
  diagnosticsTitle,
  DIRECTION_WORDS,
  entityDocsRows,
  entityRows,
  expandRows,
  expandTitle,
  farEnd,
  parsePathLine,
  tocRows,
  type ExpandEdgeView,
  type ExpandView,
  type Row,
  type TocTarget,
  type TocView,
} from './pickItems';
import { showSearchPick } from './searchPick';
import { reindexSummary } from './statusText';
import type { StatusItems } from './status';
import type { ResultsViews } from './views/resultsView';
import { whyNot, type LastFile } from './views/whyNot';

export function registerCommands(
  connection: ServerConnection,
  status: StatusItems,
  views: ResultsViews,
  lastFile: LastFile,
): Disposable[] {
  const run = <A extends unknown[]>(name: string, task: (...args: A) => Promise<unknown> | unknown) =>
    commands.registerCommand(name, async (...args: A) => {
      try {
        await task(...args);
      } catch (error) {
        await reportFailure(connection, name, error);
      }
    });
  const callTool = async <T>(name: string, args: Record<string, unknown>): Promise<{ output: T; text: string }> => {
    const result = await connection.client.sendRequest(CallToolRequest.type, { name, arguments: args });
    return { output: result.output as T, text: result.text };
  };

  return [
    // From the Source Control view's title bar (its argument is the repository) or the palette.
    run(Commands.contextForChange, () => contextForChange(connection)),
    run(Commands.search, (question?: string) =>
      showSearchPick(connection, typeof question === 'string' ? question : selectedText()),
    ),
    // The answer in the results view: every passage with its text and whole why[] table (what
    // `@context /why` shows in chat, for editors where chat cannot run).
    run(Commands.openResults, async (question?: string) => {
      const asked =
        typeof question === 'string' && question.trim()
          ? question.trim()
          : await window.showInputBox({
              title: 'Workspace context: open search results',
              prompt: 'Question',
              value: selectedText(),
            });
      if (asked?.trim()) await views.showResults(asked.trim());
    }),
    // From a results view's title bar (that view's question) or the palette: explain_result, shown in the results view.
    run(Commands.whyNot, () => whyNot(views, lastFile, callTool, selectedText)),
    // Hovers and code lenses run these two from trusted Markdown: their arguments are checked
    // (commandArgs.ts) before anything is walked or opened.
    run(Commands.expandEntity, async (given?: unknown) => {
      if (given === undefined) {
        const chosen = await askExpandArgs(connection);
        if (chosen) await showExpand(chosen, callTool);
        return;
      }
      const args = checkExpandArgs(given);
      if (!args.ok) throw new Error(`expand entity: ${args.error}`);
      await showExpand(args.value, callTool);
    }),
    run(Commands.showEntityDocs, async (given?: unknown) => {
      const checked = checkEntityDocsArgs(given);
      if (!checked.ok) throw new Error(`show entity docs: ${checked.error}`);
      const args = checked.value;
      if (args.docs.length === 0) {
        void window.showInformationMessage(`Workspace Context: ${args.entityRef} has no documents.`);
        return;
      }
      const path =
        args.docs.length === 1
          ? args.docs[0].path
          : await pickRow(entityDocsRows(args), { title: `Documents of ${args.entityRef}` });
      if (path && !(await openWorkspacePath(path, 1)))
        void window.showWarningMessage(`Workspace Context: ${path} is not in a workspace folder.`);
    }),
    run(Commands.showToc, async () => {
      const { output } = await callTool<TocView>('get_toc', {});
      await showToc(output, callTool);
    }),
    run(Commands.reindex, async () => {
      const after = await window.withProgress(
        { location: ProgressLocation.Window, title: 'Workspace Context: re-indexing' },
        () => connection.client.sendRequest(ReindexRequest.type),
      );
      void window.showInformationMessage(`Workspace Context: ${reindexSummary(after)}`);
    }),
    run(Commands.showDiagnostics, async () => {
      const report = await connection.client.sendRequest(DiagnosticsReportRequest.type);
      if (report.total === 0) {
        void window.showInformationMessage('Workspace Context: no diagnostics in the indexed workspace.');
        return;
      }
      const item = await pickRow(diagnosticsRows(report), {
        title: diagnosticsTitle(report),
        matchOnDescription: true,
        matchOnDetail: true,
      });
      if (item) await openRange(item.uri, item.range);
    }),
    run(Commands.showStatus, async () => {
      const view = status.current;
      const lines = (view?.tooltip ?? []).filter((l) => l.trim()).map((l) => l.replace(/\*\*/g, '').replace(/`/g, ''));
      const actions: Row<string>[] = [
        { kind: 'separator', label: 'Index' },
        ...lines.map((line): Row<string> => ({ kind: 'item', label: line, description: '', value: '' })),
        { kind: 'separator', label: 'Actions' },
        { kind: 'item', label: '$(refresh) Re-index', description: '', value: Commands.reindex },
        { kind: 'item', label: '$(warning) Show diagnostics', description: '', value: Commands.showDiagnostics },
        {
          kind: 'item',
          label: '$(debug-restart) Restart MCP endpoint',
          description: '',
          value: Commands.restartMcpEndpoint,
        },
        { kind: 'item', label: '$(output) Show output', description: '', value: Commands.showOutput },
      ];
      const chosen = await pickRow(actions, { title: view?.accessibilityLabel ?? 'Workspace Context' });
      if (chosen) await commands.executeCommand(chosen);
    }),
    run(Commands.restartMcpEndpoint, async () => {
      const info = await connection.client.sendRequest(RestartMcpEndpointRequest.type);
      const where =
        info.state === 'running' ? `running at ${info.url}` : `${info.state}${info.reason ? `: ${info.reason}` : ''}`;
      void window.showInformationMessage(`Workspace Context: MCP endpoint ${where}.`);
    }),
    run(Commands.showOutput, () => connection.output.show()),
  ];
}

type CallTool = <T>(name: string, args: Record<string, unknown>) => Promise<{ output: T; text: string }>;

/** Entity and direction for "Expand entity" from the palette. */
async function askExpandArgs(connection: ServerConnection): Promise<ExpandEntityArgs | undefined> {
  const symbols = (await connection.client.sendRequest(WorkspaceSymbolRequest.type, { query: '' })) ?? [];
  const entities = entityRows(symbols as { name: string; containerName?: string }[]);
  if (entities.length === 0) {
    void window.showInformationMessage('Workspace Context: no catalog entities are indexed (yet).');
    return undefined;
  }
  const entityRef = await pickRow(entities, {
    title: 'Expand entity',
    placeholder: 'Entity to walk the component graph from',
    matchOnDescription: true,
  });
  if (!entityRef) return undefined;
  const directions: Row<ExpandEntityArgs['direction']>[] = (['out', 'in', 'both'] as const).map((d) => ({
    kind: 'item',
    label: DIRECTION_WORDS[d],
    description: d,
    value: d,
  }));
  const direction = await pickRow(directions, { title: `Expand ${entityRef}`, placeholder: 'Which way to walk' });
  return direction ? { entityRef, direction, depth: 1 } : undefined;
}

async function showExpand(args: ExpandEntityArgs, callTool: CallTool): Promise<void> {
  const limit = normalizeSettings(
    Object.fromEntries(SETTING_KEYS.map((k) => [k, workspace.getConfiguration(SETTINGS_PREFIX).get(k)])),
  ).settings.budgets.expandEdges;
  const { output } = await callTool<ExpandView>('workspace_expand', {
    entityRef: args.entityRef,
    direction: args.direction,
    depth: args.depth,
    limit,
    ...(args.edgeTypes?.length ? { edgeTypes: args.edgeTypes } : {}),
  });
  if (!output.entity || output.edges.length === 0) {
    void window.showInformationMessage(`Workspace Context: ${expandTitle(output)}`);
    return;
  }
  const walkOn: QuickInputButton = {
    iconPath: new ThemeIcon('type-hierarchy-sub'),
    tooltip: 'Walk on from the far end of this edge',
  };
  const picked = await pickRow(expandRows(output), {
    title: expandTitle(output),
    matchOnDescription: true,
    matchOnDetail: true,
    itemButtons: [walkOn],
  });
  if (!picked) return;
  if ('button' in picked) {
    await showExpand({ entityRef: farEnd(picked.value), direction: args.direction, depth: 1 }, callTool);
    return;
  }
  const place = parsePathLine(picked.declaredAt);
  if (place) await openWorkspacePath(place.path, place.line);
}

async function showToc(toc: TocView, callTool: CallTool): Promise<void> {
  const rows = tocRows(toc);
  if (rows.length === 0) {
    void window.showInformationMessage(
      `Workspace Context: ${toc.notice ?? 'the rules and instructions library is empty.'}`,
    );
    return;
  }
  const target = await pickRow<TocTarget>(rows, {
    title: 'Workspace Context: table of contents',
    placeholder: 'Filter documents and sections',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!target) return;
  let sectionId = target.kind === 'section' ? target.id : undefined;
  if (!sectionId) {
    const { output } = await callTool<TocView>('get_toc', { document_id: target.id });
    sectionId = (output.sections ?? output.document?.sections ?? [])[0]?.id;
  }
  if (!sectionId) return;
  const { output } = await callTool<{ section?: { sourceRef: string }; document?: { path: string } }>('get_section', {
    id: sectionId,
  });
  const place = output.section ? parsePathLine(output.section.sourceRef) : undefined;
  if (place) await openWorkspacePath(place.path, place.line);
  else if (output.document) await openWorkspacePath(output.document.path, 1);
}

interface PickOptions {
  title: string;
  placeholder?: string;
  matchOnDescription?: boolean;
  matchOnDetail?: boolean;
  itemButtons?: QuickInputButton[];
}

type Picked<T> = T extends ExpandEdgeView ? T | { button: QuickInputButton; value: T } : T;

/** Shows rows in a QuickPick; resolves with the chosen value (or the item button pressed). */
function pickRow<T>(rows: Row<T>[], options: PickOptions): Promise<Picked<T> | undefined> {
  interface Item extends QuickPickItem {
    value?: T;
  }
  return new Promise((resolve) => {
    const pick = window.createQuickPick<Item>();
    pick.title = options.title;
    pick.placeholder = options.placeholder;
    pick.matchOnDescription = options.matchOnDescription ?? false;
    pick.matchOnDetail = options.matchOnDetail ?? false;
    pick.items = rows.map(
      (row): Item =>
        row.kind === 'separator'
          ? { label: row.label, kind: QuickPickItemKind.Separator }
          : {
              label: row.label,
              description: row.description,
              detail: row.detail,
              value: row.value,
              buttons: options.itemButtons,
            },
    );
    let settled = false;
    const settle = (value: Picked<T> | undefined) => {
      if (settled) return;
      settled = true;
      resolve(value);
      pick.hide();
    };
    pick.onDidAccept(() => {
      const item = pick.selectedItems[0] ?? pick.activeItems[0];
      if (item && item.value !== undefined && item.value !== '') settle(item.value as Picked<T>);
    });
    pick.onDidTriggerItemButton((event) => settle({ button: event.button, value: event.item.value } as Picked<T>));
    pick.onDidHide(() => {
      settle(undefined);
      pick.dispose();
    });
    pick.show();
  });
}

function selectedText(): string {
  const editor = window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) return '';
  return editor.document.getText(editor.selection).trim().slice(0, 200);
}

async function reportFailure(connection: ServerConnection, command: string, error: unknown): Promise<void> {
  const message = (error as Error)?.message ?? String(error);
  connection.output.error(`[${command}] ${(error as Error)?.stack ?? message}`);
  const showOutput = 'Show output';
  const next = connection.state === 'running' ? '' : ' The language server is not running; check the status item.';
  const answer = await window.showErrorMessage(`Workspace Context: ${message}${next}`, showOutput);
  if (answer === showOutput) connection.output.show();
}
