/**
 * A PostgreSQL server for tests, in process: PGlite (Postgres compiled to WASM, from npm)
 * behind pglite-socket, so the store is reached over the wire protocol by the same `pg` client
 * and the same `postgresql://` URL a real server takes.
 */
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface PgliteServer {
  url: string;
  stop(): Promise<void>;
}

export async function startPgliteServer(): Promise<PgliteServer> {
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 20 });
  await server.start();
  const conn = server.getServerConn();
  return {
    url: `postgresql://postgres@${conn}/postgres?sslmode=disable`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
