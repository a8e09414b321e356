/**
 * `--store` end to end against PGlite (PostgreSQL in WASM, from npm) behind the wire protocol:
 * the built CLI's index, ask, expand and serve, as the integration suite runs them everywhere.
 */
import { startPgliteServer, type PgliteServer } from '../helpers/pgliteServer';
import { storeCliSuite } from '../helpers/storeCliSuite';

describe('wsctx --store on PGlite (built CLI, real processes)', function () {
  this.timeout(300_000);
  let server: PgliteServer;
  before(async () => {
    server = await startPgliteServer();
  });
  after(async () => {
    await server?.stop();
  });
  storeCliSuite(() => server.url, { WSCTX_STORE_CONNECTIONS: '1' });
});
