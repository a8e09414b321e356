/**
 * Errors a tool reports to its caller: bad input (exit code 1 on the CLI, an `isError` result over
 * MCP) as opposed to internal failures. Messages name the field and say what would be accepted,
 * so an agent can correct its call without reading our source.
 */
import type { ZodError, ZodRawShape } from 'zod';
import type { core } from 'zod';
import { InputError } from '../engine';

/** A tool's input was wrong; hosts catch `InputError`, which this extends. */
export class ToolInputError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}

export { InputError };

/** One line per zod issue: `depth: must be a whole number from 1 to 3 ...`; list items as `sourceKinds[0]`. */
export function describeZodError(error: ZodError): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.length
        ? issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('')
        : 'input';
      return `${field}: ${issue.message}`;
    })
    .join('; ');
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text (a JSON string)',
  number: 'a number',
  array: 'a list',
  object: 'an object',
  boolean: 'true or false',
};

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string')
    return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${value}`;
  return typeof value === 'object' ? 'an object' : typeof value;
}

/**
 * The words for the issues a field's own schema leaves to zod (a missing argument, a number where
 * text belongs, an argument the tool does not take), so every refusal reads like the tool's
 * other messages instead of zod's ("expected string, received number").
 */
export function toolErrorMap(toolName: string, shape: ZodRawShape): core.$ZodErrorMap {
  return (issue) => {
    switch (issue.code) {
      case 'invalid_type':
        if (issue.input === undefined) return 'is required';
        return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}, not ${typeOf(issue.input)}`;
      case 'unrecognized_keys':
        return `${issue.keys.map((k) => JSON.stringify(k)).join(', ')} ${issue.keys.length === 1 ? 'is not an argument' : 'are not arguments'} of ${toolName}; it takes ${Object.keys(shape).join(', ')}`;
      case 'too_small':
        if (issue.origin === 'string' && issue.minimum === 1) return 'must not be empty';
        return undefined;
      default:
        return undefined;
    }
  };
}
