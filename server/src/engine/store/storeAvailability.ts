/**
 * Whether an error means the store could not be reached (docs/ARCHITECTURE.md, workspace_context's contract, "Reads fail soft"): a stopped
 * or restarting server, a dropped connection, an unreachable host. A tool that meets one answers
 * empty, flagged `scope-unreadable`, instead of failing the agent's turn. Errors that mean the
 * caller may not read (a refused password, a missing privilege) are not unavailability:
 * authorization does not fail soft.
 *
 * Read from the error's `code` (Node's socket errors, PostgreSQL's SQLSTATE) and, for the
 * connection losses the driver reports without a code, its message; no driver is imported here.
 */

/** Socket errors: nothing is listening, the connection broke, the host cannot be found or reached. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * SQLSTATEs of a server that is going away or not taking connections: class 08 (connection
 * exception), 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now) and 53300 (too
 * many connections). Class 28 (invalid authorization) and 42501 (insufficient privilege) are
 * deliberately absent.
 */
const SQLSTATE_UNAVAILABLE = /^(08...|57P0[123]|53300)$/;

/** What node-postgres says when a connection ends without a socket error code. */
const LOST_CONNECTION =
  /^(Connection terminated( unexpectedly| due to connection timeout)?|Client has encountered a connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable)\b/;

export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const { code, message, errors, cause } = error as {
    code?: unknown;
    message?: unknown;
    errors?: unknown;
    cause?: unknown;
  };
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SQLSTATE_UNAVAILABLE.test(code))) return true;
  if (typeof message === 'string' && LOST_CONNECTION.test(message)) return true;
  // Node's connection attempts to several addresses fail as one AggregateError.
  if (Array.isArray(errors) && errors.length > 0 && errors.every((e) => isStoreUnavailable(e, depth + 1))) return true;
  return isStoreUnavailable(cause, depth + 1);
}

/** The notice of an answer the store could not give. */
export function unreadableNotice(error: unknown): string {
  const reason = (error as { message?: string })?.message || (error as { code?: string })?.code || 'unavailable';
  return `The index store could not be read (${reason}): this answer is empty, not a statement that nothing is written about it. Ask again once the store is reachable.`;
}
