/**
 * Every answer as clients check it: a tool's published output schema (the JSON Schema the MCP SDK
 * lists as `outputSchema`, made the same way from the same zod shape) and the check strict clients
 * run on each structured answer, so the server can run it first.
 *
 * The SDK's `Client` validates structured content with Ajv against the listed schema, where every
 * object is `additionalProperties: false`; zod's own parse strips an undeclared field instead, so
 * an answer carrying one passes the server and throws in the client ("Structured content does not
 * match the tool's output schema"). In tests and development builds (`WSCTX_VALIDATE_OUTPUT=1`,
 * or `NODE_ENV=development`) callTool checks every answer here and fails loudly; in production it
 * costs nothing. Output schemas change only additively, each new field declared
 * (docs/tools.md, "Output schemas").
 */
import Ajv, { type ValidateFunction } from 'ajv';
import { z } from 'zod';
import type { AnyToolDefinition } from './toolDefinition';

/** A JSON Schema document (draft 7, as the SDK publishes it). */
export type JsonSchema = Record<string, unknown>;

/**
 * The output schema as the MCP SDK lists it: zod's JSON Schema of the tool's output shape, draft 7,
 * read as output (`io: 'output'`), which closes every object (`additionalProperties: false`).
 */
export function publishedOutputSchema(tool: AnyToolDefinition): JsonSchema {
  return z.toJSONSchema(z.object(tool.output), { target: 'draft-7', io: 'output' }) as JsonSchema;
}

/** The input schema as JSON Schema (draft 2020-12 for OpenAPI 3.1; the tool's own strict object). */
export function inputJsonSchema(tool: AnyToolDefinition, target: 'draft-7' | 'draft-2020-12'): JsonSchema {
  return z.toJSONSchema(z.object(tool.input).strict(), { target, io: 'input' }) as JsonSchema;
}

/** The output schema as JSON Schema draft 2020-12 (OpenAPI 3.1's dialect), otherwise as published. */
export function outputJsonSchema2020(tool: AnyToolDefinition): JsonSchema {
  return z.toJSONSchema(z.object(tool.output), { target: 'draft-2020-12', io: 'output' }) as JsonSchema;
}

/** Whether this process checks every answer before it is sent: tests and development builds. */
export function validatesOutput(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.WSCTX_VALIDATE_OUTPUT === '1' || env.NODE_ENV === 'development';
}

/** An answer its tool's published schema rejects: a bug in the server, never the caller's mistake. */
export class OutputContractError extends Error {
  constructor(
    readonly tool: string,
    readonly problems: readonly string[],
  ) {
    super(
      `${tool}'s answer does not match its published output schema (strict clients would reject it): ${problems.join('; ')}`,
    );
    this.name = 'OutputContractError';
  }
}

/**
 * Ajv as the SDK's client sets it up (all errors, formats not checked by us: the SDK adds
 * ajv-formats, and no output schema here uses a format); one per process, compiled validators
 * kept per tool.
 */
const VALIDATORS = new WeakMap<AnyToolDefinition, ValidateFunction>();
let ajv: Ajv | undefined;

function validatorOf(tool: AnyToolDefinition): ValidateFunction {
  let validate = VALIDATORS.get(tool);
  if (!validate) {
    ajv ??= new Ajv({ strict: false, allErrors: true, validateSchema: false });
    validate = ajv.compile(publishedOutputSchema(tool));
    VALIDATORS.set(tool, validate);
  }
  return validate;
}

/**
 * The ways `answer` breaks `tool`'s published output schema, one line each
 * (`/passages/0/why/0/terms/7: must NOT have additional properties (matched)`); empty when it holds.
 */
export function outputProblems(tool: AnyToolDefinition, answer: unknown): string[] {
  const validate = validatorOf(tool);
  if (validate(answer)) return [];
  return (validate.errors ?? []).map((e) => {
    const extra =
      e.keyword === 'additionalProperties'
        ? ` (${(e.params as { additionalProperty: string }).additionalProperty})`
        : '';
    return `${e.instancePath || '/'}: ${e.message ?? e.keyword}${extra}`;
  });
}

/** Throws {@link OutputContractError} when `answer` breaks `tool`'s published output schema. */
export function checkOutput(tool: AnyToolDefinition, answer: unknown): void {
  const problems = outputProblems(tool, answer);
  if (problems.length) throw new OutputContractError(tool.name, problems);
}
