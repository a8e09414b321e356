/**
 * Names client and server both need to agree on: the language client id, command ids, the
 * settings prefix, the LSP method prefix, the chat participant and MCP provider ids.
 */

export const EXTENSION_ID = 'workspace-context.workspace-context';
export const LANGUAGE_CLIENT_ID = 'workspaceContext';
export const LANGUAGE_CLIENT_NAME = 'Workspace Context';
/** Prefix of every setting (`workspaceContext.embeddings.provider`...). */
export const SETTINGS_PREFIX = 'workspaceContext';
/** Prefix of every custom LSP method (`workspaceContext/search`...). */
export const LSP_METHOD_PREFIX = 'workspaceContext';
