/**
 * Two readers holding the store in memory and one writer, on a real PostgreSQL server (Debian's
 * package): test/helpers/storeReadersSuite.ts, with the server's snapshots (a reader restarted
 * mid-write reads the last committed generation) and its LISTEN/NOTIFY.
 *
 * Always a server of its own, never $WSCTX_TEST_POSTGRES_URL's: a reader without a namespaces
 * list serves every namespace in the database, so the other store suites' namespaces there would
 * join its answers (CI's shared server failed it that way).
 */
import { ownPostgresUnavailable, startOwnPostgres, type PostgresServer } from '../helpers/postgresServer';
import { storeReadersSuite } from '../helpers/storeReadersSuite';

const unavailable = ownPostgresUnavailable();

describe('serve --store readers in memory, one writer, on PostgreSQL (built CLI, real server)', function () {
  this.timeout(300_000);
  if (unavailable) {
    it(`skipped: ${unavailable}`, function () {
      this.skip();
    });
    return;
  }
  let server: PostgresServer;
  before(() => {
    server = startOwnPostgres();
  });
  after(() => server?.stop());
  storeReadersSuite(() => server.url, {}, { snapshots: true });
});
