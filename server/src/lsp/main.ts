/**
 * Language server entry point. Owns the editor's only engine; the features arrive one file each
 * under features/ (hover, definition, diagnostics...).
 */
import { createConnection, ProposedFeatures, TextDocumentSyncKind, type InitializeResult } from 'vscode-languageserver/node';

const connection = createConnection(ProposedFeatures.all);

connection.onInitialize((): InitializeResult => {
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
    },
    serverInfo: { name: 'workspace-context', version: '0.1.0' },
  };
});

connection.listen();
