/**
 * A PostgreSQL server for tests, in process: PGlite (Postgres compiled to WASM, from npm)
 * behind pglite-socket, so the store is reached over the wire protocol by the same `pg` client
 * and the same `postgresql://` URL a real server takes. With pgvector (its PGlite build, from
 * npm) by default, so the store's HNSW path runs; `{ pgvector: false }` is a server without it.
 */
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface PgliteServer {
  url: string;
  stop(): Promise<void>;
}

export async function startPgliteServer(options: { pgvector?: boolean } = {}): Promise<PgliteServer> {
  const db = await PGlite.create(options.pgvector === false ? {} : { extensions: { vector } });
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
