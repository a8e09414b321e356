/**
 * Runs code-server (VS Code 1.139 OSS with a Node extension host) for one test run: its own
 * user data and extensions folders, loopback only, no auth, in its own process group so that
 * stop() also ends the extension hosts, language servers and MCP servers it spawned.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { codeServerEntry, node24, node24BinDir } from './paths';

/** User settings for a quiet, deterministic workbench. */
const DEFAULT_SETTINGS: Record<string, unknown> = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  // The chat view opens on the right by default and covers a third of every screenshot.
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  // The example workspaces sit inside this repository; its git prompt would cover the corner.
  'git.openRepositoryInParentFolders': 'never',
  // Hover helpers re-hover until the provider answers; a short delay keeps each try quick.
  'editor.hover.delay': 150,
};

export interface CodeServerOptions {
  /** Folder for this run's config, user data, extensions and server log. */
  runDir: string;
  /** Extra user settings merged over DEFAULT_SETTINGS. */
  settings?: Record<string, unknown>;
  /** Files written into the user folder before start, by name: `{ 'mcp.json': '...' }`. */
  userFiles?: Record<string, string>;
  /** Extra environment for the server and what it spawns. */
  env?: Record<string, string>;
}

/** Env for code-server's CLI and server: Node 24 first on PATH (the CLI checks the major). */
function codeServerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...extra, PATH: `${node24BinDir}${path.delimiter}${process.env.PATH ?? ''}` };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export class CodeServer {
  readonly userDataDir: string;
  readonly extensionsDir: string;
  readonly configFile: string;
  readonly logFile: string;
  private child: ChildProcess | undefined;
  private readonly env: Record<string, string>;
  private exited: Promise<void> = Promise.resolve();
  port = 0;

  constructor(options: CodeServerOptions) {
    this.userDataDir = path.join(options.runDir, 'user-data');
    this.extensionsDir = path.join(options.runDir, 'extensions');
    this.configFile = path.join(options.runDir, 'config.yaml');
    this.logFile = path.join(options.runDir, 'code-server.log');
    this.env = options.env ?? {};
    for (const dir of [this.userDataDir, this.extensionsDir, path.join(this.userDataDir, 'User')])
      mkdirSync(dir, { recursive: true });
    // Without --config code-server writes ~/.config/code-server/config.yaml on first run.
    writeFileSync(this.configFile, 'auth: none\ncert: false\n');
    const settings = { ...DEFAULT_SETTINGS, ...options.settings };
    writeFileSync(path.join(this.userDataDir, 'User', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
    for (const [name, text] of Object.entries(options.userFiles ?? {}))
      writeFileSync(path.join(this.userDataDir, 'User', name), text);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The folders' CLI flags every invocation needs, server or not. */
  private baseArgs(): string[] {
    return [
      codeServerEntry,
      '--config',
      this.configFile,
      '--user-data-dir',
      this.userDataDir,
      '--extensions-dir',
      this.extensionsDir,
    ];
  }

  private cli(args: string[]): string {
    const result = spawnSync(node24, [...this.baseArgs(), ...args], {
      env: codeServerEnv(),
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (result.status !== 0) {
      throw new Error(
        `e2e: code-server ${args.join(' ')} failed (${result.status ?? result.signal}): ${result.stderr}${result.stdout}`,
      );
    }
    return result.stdout;
  }

  /** Installs a VSIX into this run's extensions folder (before or while the server runs). */
  installExtension(vsixPath: string): void {
    if (!existsSync(vsixPath)) throw new Error(`e2e: no VSIX at ${vsixPath}; run \`node scripts/package/vsix.mjs\``);
    this.cli(['--install-extension', vsixPath, '--force']);
  }

  /** `publisher.name@version` of each installed extension. */
  listExtensions(): string[] {
    return this.cli(['--list-extensions', '--show-versions'])
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /^[\w-]+\.[\w-]+@/.test(l));
  }

  /** The folder an installed extension was unpacked into (`publisher.name-version`). */
  extensionFolder(extensionId: string): string {
    const prefix = `${extensionId.toLowerCase()}-`;
    const match = readdirSync(this.extensionsDir).find((d) => d.toLowerCase().startsWith(prefix));
    if (!match) throw new Error(`e2e: ${extensionId} is not unpacked in ${this.extensionsDir}`);
    return path.join(this.extensionsDir, match);
  }

  /**
   * Starts the server on a free loopback port (or `port`: the workspace storage of a folder is
   * keyed by its URI, which holds the port, so a second session on the same user data needs the
   * first one's port) and waits until /healthz answers.
   */
  async start(timeoutMs = 120_000, port?: number): Promise<void> {
    this.port = port ?? (await freePort());
    const log = createWriteStream(this.logFile);
    const child = spawn(
      node24,
      [
        ...this.baseArgs(),
        '--auth',
        'none',
        '--bind-addr',
        `127.0.0.1:${this.port}`,
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
        '--disable-getting-started-override',
      ],
      { env: codeServerEnv(this.env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    // Last resort when the test process dies without running stop().
    process.once('exit', () => this.killGroup('SIGKILL'));

    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null)
        throw new Error(`e2e: code-server exited with ${child.exitCode}; see ${this.logFile}`);
      try {
        const response = await fetch(`${this.url}/healthz`);
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`e2e: code-server did not answer /healthz within ${timeoutMs} ms; see ${this.logFile}`);
  }

  /**
   * The server's logs/<session> folder (remote agent, extension hosts, their log channels). Each
   * CLI call (list, install) starts a session folder of its own holding only remoteCLI.log, so
   * the newest folder is not necessarily the server's.
   */
  logsDir(): string | undefined {
    const root = path.join(this.userDataDir, 'logs');
    if (!existsSync(root)) return undefined;
    const sessions = readdirSync(root)
      .map((d) => path.join(root, d))
      .filter((d) => statSync(d).isDirectory() && existsSync(path.join(d, 'remoteagent.log')));
    return sessions.sort().at(-1);
  }

  /**
   * The processes of the server's session (code-server, extension hosts, language servers, MCP
   * servers...), each as pid and command line.
   */
  processes(): { pid: number; args: string }[] {
    const pid = this.child?.pid;
    if (pid === undefined) return [];
    // detached: true makes the server a session leader; its helpers stay in that session.
    const result = spawnSync('ps', ['-o', 'pid=,args=', '--sid', String(pid)], { encoding: 'utf8' });
    return result.stdout
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .map((l) => {
        const [, id = '0', args = ''] = /^(\d+)\s+(.*)$/.exec(l) ?? [];
        return { pid: Number(id), args };
      });
  }

  private killGroup(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // the group is already gone
    }
  }

  /**
   * Ends the whole process group (SIGTERM, then SIGKILL after `graceMs`), then any process of
   * the server's session that left the group. Safe to call twice.
   */
  async stop(graceMs = 5_000): Promise<void> {
    if (!this.child) return;
    this.killGroup('SIGTERM');
    await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, graceMs))]);
    // Children (extension host, language server) may outlive the server's own exit.
    this.killGroup('SIGKILL');
    await this.exited;
    for (const { pid } of this.processes()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // exited meanwhile
      }
    }
    this.child = undefined;
  }
}
