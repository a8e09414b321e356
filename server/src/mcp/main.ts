/**
 * The stdio MCP server as its own executable (dist/mcp.js): `node dist/mcp.js --workspace DIR`.
 * The same as `wsctx mcp` (both run startup/startup.ts `runStdioMcp`); kept separate so an MCP
 * client config can name one file.
 */
import { EXIT, hostMain, runStdioMcp } from '../startup/startup';

hostMain(['mcp', ...process.argv.slice(2)], (_command, _positionals, options) => runStdioMcp(options)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`workspace-context mcp: ${(error as Error).stack ?? error}\n`);
    process.exitCode = EXIT.internal;
  },
);
