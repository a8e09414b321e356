/**
 * The config file of a shared server (`wsctx serve --config FILE`, with or without `--store URL`): who may call it,
 * and which workspace folders (store namespaces) each caller may read.
 *
 * ```yaml
 * tokens:
 *   - name: platform-team
 *     tokenEnv: WSCTX_TOKEN_PLATFORM   # the token itself, from the environment, or:
 *     # token: 3f1c...                 # written here (at least 32 characters)
 *     folders: [billing, payments]     # the namespaces it may read; leave out for all of them
 *   - name: docs-bot
 *     tokenEnv: WSCTX_TOKEN_DOCS
 *     folders: [argocd]
 * ```
 *
 * A token limited to some folders is served by an engine of those folders only: a question
 * naming another folder is refused exactly like a folder the server does not serve, so nothing
 * outside its folders reaches it, not even that a folder exists. Every problem names the file,
 * the line and the key; a file with problems starts nothing.
 *
 * With `--store`, `namespaces` lists the namespaces this server serves (names, `*` for any run of
 * characters): readers that hold the store in memory split an organisation's namespaces between
 * them this way, one list per reader. The file may then leave `tokens` out (`--token`, or a
 * generated token, reads every namespace served).
 *
 * ```yaml
 * namespaces: [billing, 'payments-*']
 * ```
 */
import * as fs from 'node:fs';
import { isMap, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import { InputError } from '../engine';

/** Shortest token accepted (mcp/http.ts checks the same). */
const MIN_TOKEN = 32;

export interface ServerToken {
  name: string;
  token: string;
  /** Namespaces this token may read; null: every namespace of the store. */
  folders: string[] | null;
  /** Line of the entry in the file, for messages about it. */
  line: number;
}

export interface ServerConfig {
  path: string;
  /** Empty when the file lists none (it lists `namespaces`): `--token` or a generated token serves then. */
  tokens: ServerToken[];
  /** Namespace names or patterns this server serves (`--store`); null: every one. */
  namespaces: string[] | null;
  /** Line of `namespaces`, for messages about it. */
  namespacesLine: number;
}

/** Reads and checks the file; throws an InputError listing every problem as `file:line: key: message`. */
export function readServerConfig(file: string, env: NodeJS.ProcessEnv = process.env): ServerConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError(
      `--config ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  return parseServerConfig(file, text, env);
}

export function parseServerConfig(file: string, text: string, env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const problems: string[] = [];
  const lineOf = (node: YamlNode | null | undefined) => (node?.range ? lines.linePos(node.range[0]).line : 1);
  const problem = (node: YamlNode | null | undefined, key: string, message: string) =>
    problems.push(`${file}:${lineOf(node)}: ${key}: ${message}`);
  for (const error of doc.errors)
    problems.push(`${file}:${error.linePos?.[0].line ?? 1}: ${error.message.split('\n')[0]}`);
  const tokens: ServerToken[] = [];
  let namespaces: string[] | null = null;
  let namespacesLine = 1;
  if (doc.errors.length === 0) {
    const root = doc.contents;
    if (!isMap(root)) problem(root, 'tokens', 'the file must be a mapping with a `tokens` list');
    else {
      for (const pair of root.items) {
        const key = String((pair.key as { value?: unknown })?.value ?? pair.key);
        if (key !== 'tokens' && key !== 'namespaces')
          problem(pair.key as YamlNode, key, 'unknown key (the file holds `tokens` and `namespaces`)');
      }
      const listed = root.get('namespaces', true) as YamlNode | undefined;
      if (listed !== undefined) {
        namespacesLine = lineOf(listed);
        const value = isSeq(listed) ? (listed.toJSON() as unknown[]) : undefined;
        if (!value || value.length === 0 || !value.every((n) => typeof n === 'string' && n.trim()))
          problem(listed, 'namespaces', 'a non-empty list of namespace names (or patterns with *) this server serves');
        else namespaces = (value as string[]).map((n) => n.trim());
      }
      const list = root.get('tokens', true) as YamlNode | undefined;
      if (list === undefined && listed !== undefined) {
        // Only the namespaces: --token (or a generated one) reads them.
      } else if (!isSeq(list))
        problem(list ?? root, 'tokens', 'a list of { name, token or tokenEnv, folders } is required');
      else {
        list.items.forEach((item, i) => {
          const where = `tokens[${i}]`;
          if (!isMap(item))
            return problem(item as YamlNode, where, 'each token is a mapping { name, token or tokenEnv, folders }');
          const entry = item.toJSON() as Record<string, unknown>;
          for (const k of Object.keys(entry))
            if (!['name', 'token', 'tokenEnv', 'folders'].includes(k))
              problem(item.get(k, true) as YamlNode, `${where}.${k}`, 'unknown key (name, token, tokenEnv, folders)');
          const name = typeof entry.name === 'string' && entry.name.trim() ? entry.name.trim() : undefined;
          if (!name) problem(item, `${where}.name`, 'a name is required (it is what logs call the caller)');
          let token: string | undefined;
          if (typeof entry.token === 'string' && entry.tokenEnv === undefined) token = entry.token;
          else if (typeof entry.tokenEnv === 'string' && entry.token === undefined) {
            token = env[entry.tokenEnv];
            if (token === undefined)
              problem(
                item.get('tokenEnv', true) as YamlNode,
                `${where}.tokenEnv`,
                `the environment variable ${entry.tokenEnv} is not set`,
              );
          } else problem(item, `${where}.token`, 'give exactly one of token and tokenEnv');
          if (token !== undefined && token.length < MIN_TOKEN)
            problem(item, `${where}.token`, `a token must be at least ${MIN_TOKEN} characters (got ${token.length})`);
          let folders: string[] | null = null;
          if (entry.folders !== undefined) {
            if (
              !Array.isArray(entry.folders) ||
              entry.folders.length === 0 ||
              !entry.folders.every((f) => typeof f === 'string' && f.trim())
            ) {
              problem(
                item.get('folders', true) as YamlNode,
                `${where}.folders`,
                'a non-empty list of folder names (leave it out for every folder)',
              );
            } else folders = (entry.folders as string[]).map((f) => f.trim());
          }
          if (name && token !== undefined && token.length >= MIN_TOKEN)
            tokens.push({ name, token, folders, line: lineOf(item) });
        });
        if (list.items.length === 0) problem(list, 'tokens', 'the list is empty: no caller could use the server');
      }
    }
  }
  const seen = new Map<string, ServerToken>();
  for (const t of tokens) {
    const other = seen.get(t.token);
    if (other)
      problems.push(
        `${file}:${t.line}: tokens: ${t.name} has the same token as ${other.name} (line ${other.line}); each caller needs its own`,
      );
    seen.set(t.token, t);
  }
  if (problems.length)
    throw new InputError(
      `${problems.length === 1 ? 'a problem' : `${problems.length} problems`} in the server config:\n${problems.join('\n')}`,
    );
  return { path: file, tokens, namespaces, namespacesLine };
}
