/**
 * A loopback port nothing listens on, for tests of what a client says when nothing answers.
 *
 * It is drawn below every system's range of ports handed out for port 0 (Linux 32768-60999,
 * macOS and Windows 49152-65535) and checked free. A port taken with `listen(0)` and let go could
 * be handed at once to a server another test file starts beside this one (`npm test` runs two
 * files at a time), and that server would then answer.
 */
import { createServer } from 'node:net';

export async function closedLoopbackPort(): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const port = 20_000 + Math.floor(Math.random() * 10_000);
    const server = createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!free) continue;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }
  throw new Error('no free loopback port found in 20000-29999');
}
