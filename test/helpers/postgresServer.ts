/**
 * A real PostgreSQL server for the end-to-end store suite: the one `.ci/run` started
 * ($WSCTX_TEST_POSTGRES_URL), else one started here from the local binaries (Debian's
 * `postgresql` package) in a temporary folder by scripts/postgres/start-temp.sh, else none (the
 * suite then skips, saying why: CI always has the binaries).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const SCRIPTS = path.resolve(__dirname, '../../scripts/postgres');

export interface PostgresServer {
  url: string;
  stop(): void;
}

/** Why no server can be had here, or undefined when one can. */
export function postgresUnavailable(): string | undefined {
  if (process.env.WSCTX_TEST_POSTGRES_URL) return undefined;
  const root = '/usr/lib/postgresql';
  const found =
    fs.existsSync(root) && fs.readdirSync(root).some((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')));
  return found
    ? undefined
    : `no PostgreSQL server binaries under ${root} and no $WSCTX_TEST_POSTGRES_URL (apt-get install postgresql; .ci/run does)`;
}

/** A server of this process's own, which a test may stop and start again (its data and port kept). */
export interface OwnPostgresServer extends PostgresServer {
  pause(): void;
  resume(): void;
}

/** Always a new server from the local binaries (never $WSCTX_TEST_POSTGRES_URL's, which others use). */
export function startOwnPostgres(): OwnPostgresServer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-pg-'));
  const url = execFileSync('bash', [path.join(SCRIPTS, 'start-temp.sh'), dir], {
    encoding: 'utf8',
    timeout: 120_000,
  }).trim();
  const ctl = (action: 'stop' | 'start') =>
    execFileSync('bash', [path.join(SCRIPTS, 'pause-temp.sh'), dir, action], { encoding: 'utf8', timeout: 120_000 });
  return {
    url,
    stop: () => void spawnSync('bash', [path.join(SCRIPTS, 'stop-temp.sh'), dir], { timeout: 60_000 }),
    pause: () => void ctl('stop'),
    resume: () => void ctl('start'),
  };
}

/** Whether the local binaries can start a server of this process's own. */
export function ownPostgresUnavailable(): string | undefined {
  const root = '/usr/lib/postgresql';
  const found =
    fs.existsSync(root) && fs.readdirSync(root).some((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')));
  return found ? undefined : `no PostgreSQL server binaries under ${root} (apt-get install postgresql; .ci/run does)`;
}

export function startPostgres(): PostgresServer {
  const given = process.env.WSCTX_TEST_POSTGRES_URL;
  if (given) return { url: given, stop: () => undefined };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wsctx-pg-'));
  const url = execFileSync('bash', [path.join(SCRIPTS, 'start-temp.sh'), dir], {
    encoding: 'utf8',
    timeout: 120_000,
  }).trim();
  return { url, stop: () => void spawnSync('bash', [path.join(SCRIPTS, 'stop-temp.sh'), dir], { timeout: 60_000 }) };
}
