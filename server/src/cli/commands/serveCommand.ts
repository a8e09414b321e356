/**
 * `wsctx serve`: MCP over Streamable HTTP on the loopback interface, for agents that cannot spawn
 * a stdio server and for several readers of one index.
 *
 * - Without `--config`, one token (`--token`, or a generated one printed on stderr) reads every
 *   folder served.
 * - With `--config FILE` (config/serverConfig.ts), each token of the file is its own caller: a
 *   token without `folders` reads every folder served; a token limited to some folders is served
 *   by an engine of those folders only, so nothing outside them reaches it, not even that a folder
 *   exists. In memory such an engine indexes its folders itself (from the same snapshot and
 *   vector caches); over a store (`--store`) it reads their namespaces.
 */
import * as path from 'node:path';
import { readServerConfig, type ServerConfig, type ServerToken } from '../../config/serverConfig';
import { type Engine, InputError, type WorkspaceFolder } from '../../engine';
import { checkToken, startHttpMcpServer, type HttpAccess, type HttpMcpServer } from '../../mcp/http';
import { restRoutes } from '../../rest/restApi';
import { createServices, type Services } from '../../services/services';
import { UsageError, type CliOptions } from '../../startup/args';
import { logToStderr, startServices, VERSION, workspaceFolders } from '../../startup/startup';
import { watchWorkspace } from '../../startup/watchWorkspace';
import type { StoreEngine } from './storeCommand';
import { type StoreIndex, storeIndex } from '../../store/storeIndex';

/** A token of the config file and the served folders it may read (null: every one). */
interface TokenFolders {
  token: ServerToken;
  folders: string[] | null;
}

/**
 * `--config` read, or undefined; `--token` with a file that lists tokens is a usage error (one or
 * the other), beside a file that lists only `namespaces` it is the token.
 */
export function serverConfigOf(options: CliOptions): ServerConfig | undefined {
  const config = options.config !== undefined ? readServerConfig(path.resolve(options.config)) : undefined;
  if (options.token !== undefined && config && config.tokens.length > 0)
    throw new UsageError('--token and --config: the config file lists the tokens; give one or the other');
  if (options.token !== undefined) checkToken(options.token);
  return config;
}

/**
 * Each token with the folders of `served` it may read. A token none of whose folders is served is
 * an error naming the file and line; folders not served (yet) are said on stderr when `absentOk`
 * (a store may hold them later), an error otherwise.
 */
function tokenFolders(config: ServerConfig, served: readonly string[], absentOk: boolean): TokenFolders[] {
  return config.tokens.map((token) => {
    if (token.folders === null) return { token, folders: null };
    const allowed = token.folders.filter((f) => served.includes(f));
    const absent = token.folders.filter((f) => !served.includes(f));
    if (allowed.length === 0)
      throw new InputError(
        `${config.path}:${token.line}: tokens: ${token.name} may read ${token.folders.join(', ')}, none of which this server serves (it serves ${served.join(', ')})`,
      );
    if (absent.length && !absentOk)
      throw new InputError(
        `${config.path}:${token.line}: tokens: ${token.name} may read ${absent.join(', ')}, which this server does not serve (it serves ${served.join(', ')}; folders are named by their directory names)`,
      );
    if (absent.length)
      logToStderr(`[serve] ${token.name}: ${absent.join(', ')} not in the store (yet); it reads ${allowed.join(', ')}`);
    return { token, folders: allowed };
  });
}

/** `serve` over the in-memory engine: one engine for every folder, one more per distinct set of folders a token is limited to. */
export async function serveMemory(options: CliOptions): Promise<number> {
  const config = serverConfigOf(options);
  if (config?.namespaces)
    throw new InputError(
      `${config.path}:${config.namespacesLine}: namespaces: a list of the store's namespaces to serve, for serve --store; without a store, --workspace names the folders`,
    );
  const folders = workspaceFolders(options.workspaces);
  const limits = config?.tokens.length
    ? tokenFolders(
        config,
        folders.map((f) => f.name),
        false,
      )
    : [];
  const start = (subset?: readonly WorkspaceFolder[]) =>
    startServices(options, {
      meaning: 'serve',
      log: logToStderr,
      callLog: true,
      connections: 'shared',
      ...(subset ? { folders: subset } : {}),
    });
  const main = start();
  const running: { services: Services<Engine>; unwatch: () => void }[] = [];
  const run = (services: Services<Engine>) => {
    services.engine.stateForQuery();
    running.push({ services, unwatch: watchWorkspace(services.engine, logToStderr) });
    return services;
  };
  run(main);
  let server: HttpMcpServer;
  try {
    // One engine per distinct set of folders: two tokens limited to the same folders share it.
    const bySet = new Map<string, Services>();
    const access: HttpAccess[] = limits.map(({ token, folders: allowed }) => {
      if (allowed === null || allowed.length === folders.length)
        return { name: token.name, token: token.token, services: main };
      const key = [...allowed].sort().join('\n');
      let services = bySet.get(key);
      if (!services) bySet.set(key, (services = run(start(folders.filter((f) => allowed.includes(f.name))))));
      return { name: token.name, token: token.token, services };
    });
    server = await startHttpMcpServer({
      services: main,
      ...(limits.length ? { access } : { token: options.token }),
      port: options.port,
      routes: restRoutes({ version: VERSION }),
      log: logToStderr,
    });
  } catch (error) {
    await stopAll(running, false);
    throw error;
  }
  process.stderr.write(
    `wsctx: serving MCP over HTTP\n  url:   ${server.url}\n  ${limits.length ? `tokens from ${config!.path}: ${config!.tokens.map((t) => t.name).join(', ')}` : `token: ${server.token}`}\n  ${restLine(server)}\n`,
  );
  await untilSignal();
  await server.close();
  await stopAll(running, true);
  return 0;
}

async function stopAll(
  running: readonly { services: Services<Engine>; unwatch: () => void }[],
  save: boolean,
): Promise<void> {
  for (const { services, unwatch } of running) {
    unwatch();
    if (save) await services.engine.saveSnapshot();
    services.engine.dispose();
  }
}

/**
 * `serve --store`: MCP over HTTP for many concurrent readers of the store. With `--config FILE`
 * each token of the file gets its own engine over the folders it may read; without (or with a
 * file that lists only `namespaces`), one token (`--token`, or a generated one) reads every
 * namespace served. Every engine shares the process's one reader: in memory, each namespace is
 * held once whatever the tokens. `GET /status` answers each token with the namespaces it may
 * read: generation, sections and, in memory, the estimated bytes held.
 */
export async function serveStore(
  opened: StoreEngine,
  options: CliOptions,
  config: ServerConfig | undefined,
): Promise<number> {
  const served = opened.namespaces.map((n) => n.name);
  const readers = { reader: opened.reader, memory: opened.memory };
  const access: HttpAccess[] = (config?.tokens.length ? tokenFolders(config, served, true) : []).map(
    ({ token, folders }) => {
      const allowed = folders === null ? opened.namespaces : opened.namespaces.filter((n) => folders.includes(n.name));
      const engine = storeIndex(
        allowed,
        readers,
        logToStderr,
        opened.embedder,
        options.workspacesGiven ? 'these' : (token.folders ?? 'all'),
      );
      return {
        name: token.name,
        token: token.token,
        services: createServices({ engine }),
        status: () => storeStatus(opened, engine),
      };
    },
  );
  const server = await startHttpMcpServer({
    services: createServices({ engine: opened.engine }),
    ...(access.length ? { access } : { token: options.token, status: () => storeStatus(opened, opened.engine) }),
    port: options.port,
    routes: restRoutes({ version: VERSION }),
    log: logToStderr,
  });
  const who = access.length
    ? `tokens from ${config!.path}: ${access.map((a) => a.name).join(', ')}`
    : `token: ${server.token}`;
  const how =
    opened.mode === 'memory'
      ? 'answering from memory, following writes'
      : 'reading the store for each question (--store-mode per-question)';
  process.stderr.write(
    `wsctx: serving MCP over HTTP from the store (${served.join(', ')}), ${how}\n  url:   ${server.url}\n  ${who}\n  status: GET ${server.url.replace(/\/mcp$/, '/status')}\n  ${restLine(server)}\n`,
  );
  await untilSignal();
  await server.close();
  return 0;
}

/** What `GET /status` answers a token: how the store is read and the namespaces its engine serves. */
function storeStatus(opened: StoreEngine, engine: StoreIndex): unknown {
  const names = new Set(engine.folders.map((f) => f.name));
  if (opened.memory) {
    const status = opened.memory.status();
    const namespaces = status.namespaces.filter((n) => names.has(n.name));
    return {
      ...status,
      estimatedBytes: namespaces.reduce((sum, n) => sum + n.estimatedBytes, 0),
      namespaces,
      rssBytes: process.memoryUsage.rss(),
    };
  }
  return { mode: 'per-question', namespaces: engine.folders.map((f) => ({ name: f.name })) };
}

/** Where the REST API is (docs/rest.md), on the line after the MCP endpoint's. */
function restLine(server: HttpMcpServer): string {
  const base = server.url.replace(/\/mcp$/, '');
  return `rest:  GET|POST ${base}/context, GET|POST ${base}/workspace_context (${base}/openapi.json describes them)`;
}

function untilSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}
