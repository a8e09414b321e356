/**
 * The stdio MCP server as its own executable (dist/mcp.js): `node dist/mcp.js --workspace DIR`.
 * The same as `wsctx mcp`; kept separate so an MCP client config can name one file.
 */
import { main } from '../cli/main';

main(['mcp', ...process.argv.slice(2)]).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`workspace-context mcp: ${(error as Error).stack ?? error}\n`);
    process.exitCode = 2;
  },
);
