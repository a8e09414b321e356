/**
 * Real temporary directories and real git repositories for the workspace tests.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileGitRunner, type GitRunner } from '../../server/src/engine/workspace/gitRunner';

const created: string[] = [];

/** A new empty directory under the OS temp dir, removed by `removeTempDirs`. */
export function tempDir(label = 'ws'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `wsctx-${label}-`)));
  created.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** Writes a file, creating its directories. */
export function write(root: string, rel: string, content: string | Buffer): string {
  const abs = path.join(root, ...rel.split('/'));
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
  return abs;
}

/** Environment that keeps the machine's git config out of the tests. */
function gitTestEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull, ...extra };
}

export function git(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  return execFileSync('git', args, { cwd, env: gitTestEnv(env), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export function initRepo(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'user.name', 'Test Author']);
  git(dir, ['config', 'user.email', 'author@example.com']);
  git(dir, ['config', 'commit.gpgsign', 'false']);
  return dir;
}

/** Environment that dates a commit at `epochSeconds` (UTC). */
export function dated(epochSeconds: number): NodeJS.ProcessEnv {
  const date = `@${epochSeconds} +0000`;
  return { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
}

/** Stages everything and commits it at `epochSeconds`; returns the new commit id. */
export function commitAll(dir: string, message: string, epochSeconds: number): string {
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '--allow-empty', '-m', message], dated(epochSeconds));
  return git(dir, ['rev-parse', 'HEAD']).trim();
}

/** The bundled example workspace (examples/fernhill). */
export const EXAMPLE_WORKSPACE = path.resolve(__dirname, '../../examples/fernhill');

/**
 * A copy of the example workspace in a temp dir. With `git: true`, each repository folder
 * (payments-platform, storefront, platform-infra) becomes its own git repository with one commit
 * at `commitEpochSeconds`, and the top folder gets its own repository for the rest: the layout
 * of a developer's folder of cloned repositories.
 */
export function copyExampleWorkspace(options: { git?: boolean; commitEpochSeconds?: number } = {}): string {
  const dir = tempDir('fernhill');
  fs.cpSync(EXAMPLE_WORKSPACE, dir, { recursive: true });
  if (options.git) {
    const when = options.commitEpochSeconds ?? Math.floor(Date.now() / 1000) - 86_400;
    const repos = fs.readdirSync(dir).filter((name) => fs.existsSync(path.join(dir, name, 'catalog-info.yaml')));
    for (const repo of repos) {
      initRepo(path.join(dir, repo));
      commitAll(path.join(dir, repo), `Import ${repo}`, when);
    }
    initRepo(dir);
    fs.writeFileSync(path.join(dir, '.gitignore'), `${repos.map((r) => `/${r}/`).join('\n')}\n`);
    commitAll(dir, 'Workspace root', when);
  }
  return dir;
}

/** The real git runner, recording the arguments of every git command it runs. */
export function countingGitRunner(): GitRunner & { calls: string[][] } {
  const real = execFileGitRunner();
  const calls: string[][] = [];
  return {
    gitPath: real.gitPath,
    calls,
    run: (args, cwd) => {
      calls.push([...args]);
      return real.run(args, cwd);
    },
  };
}
