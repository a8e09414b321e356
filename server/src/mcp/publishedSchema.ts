/**
 * The input schema handed to the MCP SDK for a tool: it publishes exactly the tool's JSON Schema
 * (every range, enum, maximum, `additionalProperties: false`) but lets every value through, so the
 * tool's own validation (callTool) is the one that refuses a call. The SDK's own refusal would
 * read "MCP error -32602: Input validation error: ... expected string, received number"; ours names
 * the field and what it accepts, in the tool's words.
 */
import { z, type ZodRawShape, type ZodType } from 'zod';

export function publishedInputSchema(shape: ZodRawShape) {
  // `catch` publishes the inner schema (its "default" is the catch value for undefined, which is
  // undefined and so left out) and at parse time hands back the value as sent.
  const passThrough = Object.fromEntries(
    Object.entries(shape).map(([name, field]) => [
      name,
      (field as ZodType).catch((ctx: { value: unknown } | undefined) => ctx?.value as never),
    ]),
  );
  // Unknown arguments pass too (callTool refuses them by name); the schema still says they are not taken.
  return z.object(passThrough).catchall(z.unknown()).meta({ additionalProperties: false });
}
