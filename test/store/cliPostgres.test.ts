/**
 * `--store` end to end against a real PostgreSQL server (Debian's package; no pgvector there):
 * the same suite as on PGlite, with ten connections per process and concurrent readers.
 */
import { postgresUnavailable, startPostgres, type PostgresServer } from '../helpers/postgresServer';
import { storeCliSuite } from '../helpers/storeCliSuite';

const unavailable = postgresUnavailable();

describe('wsctx --store on PostgreSQL (built CLI, real server)', function () {
  this.timeout(300_000);
  if (unavailable) {
    it(`skipped: ${unavailable}`, function () {
      this.skip();
    });
    return;
  }
  let server: PostgresServer;
  before(() => {
    server = startPostgres();
  });
  after(() => server?.stop());
  storeCliSuite(() => server.url);
});
