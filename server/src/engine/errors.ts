/**
 * The one error class the engine throws for a caller's mistake (a bad `asOf`, an unknown id), as
 * opposed to a fault of ours. Hosts show its message as is: it names the field and what would be
 * accepted. Parsers never throw on workspace content; they report problems instead.
 */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/**
 * Something the command needs is not there to answer: a PostgreSQL store that cannot be reached,
 * a cache that cannot be written. Not the caller's mistake (InputError) nor a fault of ours; the
 * command line exits 2 on it, so a script can tell "try again later" from "fix the command".
 */
export class UnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnavailableError';
  }
}
