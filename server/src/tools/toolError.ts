/**
 * Errors a tool reports to its caller: bad input (exit code 1 on the CLI, an `isError` result over
 * MCP) as opposed to internal failures. Messages name the field and say what would be accepted,
 * so an agent can correct its call without reading our source.
 */
import type { ZodError } from 'zod';
import { InputError } from '../engine/errors';

/** A tool's input was wrong; hosts catch `InputError`, which this extends. */
export class ToolInputError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}

export { InputError };

/** One line per zod issue: `depth: must be at most 3 (got 4)`. */
export function describeZodError(error: ZodError): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.length ? issue.path.join('.') : 'input';
      return `${field}: ${issue.message}`;
    })
    .join('; ');
}
