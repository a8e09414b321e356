/**
 * A REST request read as a tool's input: the query string of a GET, or the JSON body of a POST,
 * passed through to the tool as its arguments, so a field the tool gains works here with no
 * change. Query values are strings; each is read as the type the tool's own schema gives the field
 * (a whole number, a list written `a,b` or repeated, true or false), and anything else is left for
 * the tool to refuse by name, as over MCP. `format` is the API's own field: the answer's format.
 */
import type { IncomingMessage } from 'node:http';
import type { JsonSchema } from '../tools/outputContract';

/** The largest POST body read: 1 MiB (a tool's longest argument is a few thousand characters). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A request the API refuses before any tool runs: its status and one line saying why. */
export class RestRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'RestRefusal';
  }
}

/**
 * The query string as tool arguments: names the API spells otherwise (`budget`) become the tool's
 * (`max_tokens`), and each value takes the type of its field in `schema` (the tool's input, as
 * JSON Schema). A repeated name is a list (`tags=a&tags=b`), as is a comma-separated value of a
 * list field (`tags=a,b`).
 */
export function queryInput(
  params: URLSearchParams,
  schema: JsonSchema,
  aliases: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const input: Record<string, unknown> = {};
  for (const name of new Set(params.keys())) {
    const field = aliases[name] ?? name;
    if (field in input) throw new RestRefusal(400, `${name}: given twice (as ${name} and ${field}); give one`);
    input[field] = typed(params.getAll(name), properties[field]);
  }
  return input;
}

function typed(values: string[], schema: JsonSchema | undefined): unknown {
  const type = schema?.type;
  if (type === 'array')
    return values
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '');
  const value = values.length === 1 ? values[0] : values;
  if (typeof value !== 'string') return value;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/** The JSON body of a POST, an object of tool arguments; refused when it is not JSON, not an object, or too large. */
export async function bodyInput(
  req: IncomingMessage,
  aliases: Readonly<Record<string, string>>,
): Promise<Record<string, unknown>> {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json')
    throw new RestRefusal(
      415,
      `send the arguments as JSON with Content-Type: application/json (got ${type || 'none'})`,
    );
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES)
      throw new RestRefusal(
        413,
        `the body is larger than ${MAX_BODY_BYTES} bytes; a tool's arguments are a few thousand characters`,
      );
    chunks.push(chunk as Buffer);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    throw new RestRefusal(400, `the body is not JSON: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new RestRefusal(
      400,
      'the body must be a JSON object of arguments, e.g. {"task": "roll back billing-worker"}',
    );
  const input: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(parsed)) {
    const field = aliases[name] ?? name;
    if (field in input) throw new RestRefusal(400, `${name}: given twice (as ${name} and ${field}); give one`);
    input[field] = value;
  }
  return input;
}

export type AnswerFormat = 'markdown' | 'json';

/** The media type of each answer format. */
export const MEDIA_TYPES: Readonly<Record<AnswerFormat, string>> = {
  markdown: 'text/markdown; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

/**
 * The format the caller asked for: `format` when given, else the Accept header's preference
 * (application/json, or text/markdown, text/plain or anything: Markdown, the default); refused
 * when Accept names none of these.
 */
export function answerFormat(format: unknown, accept: string | undefined): AnswerFormat {
  if (format !== undefined) {
    if (format === 'markdown' || format === 'json') return format;
    throw new RestRefusal(400, `format: ${JSON.stringify(format)} is not a format; use one of markdown, json`);
  }
  if (!accept?.trim()) return 'markdown';
  let best: { format: AnswerFormat; q: number } | undefined;
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';');
    const q = Number(params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined) ?? 1);
    const format: AnswerFormat | undefined =
      range === 'application/json'
        ? 'json'
        : ['text/markdown', 'text/plain', 'text/*', '*/*'].includes(range.trim())
          ? 'markdown'
          : undefined;
    if (format && q > 0 && (!best || q > best.q)) best = { format, q };
  }
  if (!best)
    throw new RestRefusal(406, `Accept: ${accept}: this API answers text/markdown (the default) or application/json`);
  return best.format;
}
