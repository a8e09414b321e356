/**
 * Extension entry point: wires the parts together and holds no logic of its own.
 */
import type { ExtensionContext } from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { createLanguageClient } from './languageClient';

let client: LanguageClient | undefined;

export async function activate(context: ExtensionContext): Promise<void> {
  client = createLanguageClient(context);
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
