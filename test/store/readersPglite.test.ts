/**
 * Two readers holding the store in memory and one writer, on PGlite (PostgreSQL in WASM, from npm)
 * behind the wire protocol: test/helpers/storeReadersSuite.ts.
 */
import { startPgliteServer, type PgliteServer } from '../helpers/pgliteServer';
import { storeReadersSuite } from '../helpers/storeReadersSuite';

describe('serve --store readers in memory, one writer, on PGlite (built CLI, real processes)', function () {
  this.timeout(300_000);
  let server: PgliteServer;
  before(async () => {
    server = await startPgliteServer({ pgvector: false });
  });
  after(async () => {
    await server?.stop();
  });
  storeReadersSuite(() => server.url, { WSCTX_STORE_CONNECTIONS: '1' }, { snapshots: false });
});
