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
