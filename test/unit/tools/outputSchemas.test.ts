/**
 * Every answer as strict clients check it (server/src/tools/outputContract.ts): each tool's
 * published output schema closes every object, so an undeclared field is an error a client sees;
 * schemas change only additively against the record kept beside this test (a field removed,
 * retyped or made optional fails; a field added fails until it is recorded, so every new field is
 * declared on purpose); and callTool, in tests and development builds, refuses to hand back an
 * answer its schema rejects.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { Engine } from '../../../server/src/engine/engine';
import { createServices } from '../../../server/src/services/services';
import { callTool } from '../../../server/src/tools/callTool';
import {
  checkOutput,
  OutputContractError,
  outputProblems,
  publishedOutputSchema,
  validatesOutput,
  type JsonSchema,
} from '../../../server/src/tools/outputContract';
import { findTool, TOOLS } from '../../../server/src/tools/registry';
import type { AnyToolDefinition } from '../../../server/src/tools/toolDefinition';
import { removeTempDirs, tempDir, write } from '../../helpers/tempWorkspace';

/** The published output schemas as last recorded; `UPDATE_OUTPUT_SCHEMAS=1` rewrites it after an additive change. */
const RECORD = path.join(__dirname, 'outputSchemas.json');

/** Every object node of `schema` that is not closed (`additionalProperties: false` with its properties listed). */
export function openObjects(schema: unknown, at = ''): string[] {
  if (!schema || typeof schema !== 'object') return [];
  if (Array.isArray(schema)) return schema.flatMap((s, i) => openObjects(s, `${at}[${i}]`));
  const node = schema as JsonSchema;
  const found: string[] = [];
  if (node.type === 'object' || node.properties !== undefined || node.additionalProperties !== undefined) {
    if (node.additionalProperties !== false || node.properties === undefined || node.patternProperties !== undefined)
      found.push(at || '/');
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object')
      for (const [name, property] of Object.entries(value)) found.push(...openObjects(property, `${at}/${name}`));
    else if (key === 'items') found.push(...openObjects(value, `${at}[]`));
    else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf') found.push(...openObjects(value, at));
  }
  return found;
}

/** What `now` takes away from a client that relied on `before`: removed, retyped or no longer required fields. */
export function breakingChanges(before: JsonSchema, now: JsonSchema | undefined, at = ''): string[] {
  if (!now) return [`${at || '/'}: removed`];
  const out: string[] = [];
  for (const key of ['type', 'enum', 'const'] as const)
    if (JSON.stringify(before[key]) !== JSON.stringify(now[key]))
      out.push(`${at || '/'}: ${key} ${JSON.stringify(before[key])} became ${JSON.stringify(now[key])}`);
  const required = new Set((now.required as string[] | undefined) ?? []);
  for (const name of (before.required as string[] | undefined) ?? [])
    if (!required.has(name)) out.push(`${at}/${name}: no longer required`);
  const properties = (now.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, property] of Object.entries((before.properties ?? {}) as Record<string, JsonSchema>))
    out.push(...breakingChanges(property, properties[name], `${at}/${name}`));
  if (before.items) out.push(...breakingChanges(before.items as JsonSchema, now.items as JsonSchema, `${at}[]`));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const alternatives = (before[key] ?? []) as JsonSchema[];
    alternatives.forEach((alt, i) => {
      out.push(...breakingChanges(alt, ((now[key] ?? []) as JsonSchema[])[i], `${at}(${key} ${i})`));
    });
  }
  return out;
}

/** Fields `now` declares that `before` did not. */
export function addedFields(before: JsonSchema | undefined, now: JsonSchema, at = ''): string[] {
  if (!before) return [at || '/'];
  const out: string[] = [];
  const properties = (before.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, property] of Object.entries((now.properties ?? {}) as Record<string, JsonSchema>))
    out.push(...addedFields(properties[name], property, `${at}/${name}`));
  if (now.items) out.push(...addedFields(before.items as JsonSchema | undefined, now.items as JsonSchema, `${at}[]`));
  for (const key of ['anyOf', 'oneOf'] as const)
    ((now[key] ?? []) as JsonSchema[]).forEach((alt, i) => {
      out.push(...addedFields(((before[key] ?? []) as JsonSchema[])[i], alt, `${at}(${key} ${i})`));
    });
  return out;
}

describe('output schemas: what strict clients check', () => {
  after(() => removeTempDirs());

  it('every tool publishes an output schema closed at every object level', () => {
    for (const tool of TOOLS) {
      const schema = publishedOutputSchema(tool);
      assert.equal(schema.type, 'object', tool.name);
      assert.deepEqual(openObjects(schema), [], `${tool.name}: objects that would let an undeclared field through`);
    }
  });

  it('the check itself finds an open object and an undeclared field', () => {
    assert.deepEqual(openObjects({ type: 'object', properties: { a: { type: 'object', properties: {} } } }), [
      '/',
      '/a',
    ]);
    const tool = findTool('workspace_expand')!;
    const problems = outputProblems(tool, { root: 'x', undeclared: 1 });
    assert.ok(
      problems.some((p) => p === '/: must NOT have additional properties (undeclared)'),
      problems.join('\n'),
    );
    assert.throws(
      () => checkOutput(tool, { root: 'x', undeclared: 1 }),
      (error: Error) =>
        error instanceof OutputContractError &&
        /^workspace_expand's answer does not match its published output schema/.test(error.message),
    );
  });

  it('schemas change only additively: nothing removed, retyped or made optional; every added field recorded', () => {
    const now = Object.fromEntries(TOOLS.map((t) => [t.name, publishedOutputSchema(t)]));
    if (process.env.UPDATE_OUTPUT_SCHEMAS === '1') {
      const before = fs.existsSync(RECORD)
        ? (JSON.parse(fs.readFileSync(RECORD, 'utf8')) as Record<string, JsonSchema>)
        : {};
      for (const [name, schema] of Object.entries(before))
        assert.deepEqual(breakingChanges(schema, now[name]), [], `${name}: not additive, not recorded`);
      fs.writeFileSync(RECORD, `${JSON.stringify(now, null, 2)}\n`);
    }
    const before = JSON.parse(fs.readFileSync(RECORD, 'utf8')) as Record<string, JsonSchema>;
    for (const [name, schema] of Object.entries(before))
      assert.deepEqual(
        breakingChanges(schema, now[name]),
        [],
        `${name}: a change clients relying on it would break on`,
      );
    for (const [name, schema] of Object.entries(now))
      assert.deepEqual(
        addedFields(before[name], schema),
        [],
        `${name}: new fields; declare them in docs/tools.md and record them with UPDATE_OUTPUT_SCHEMAS=1 npm run test:file -- test/unit/tools/outputSchemas.test.ts`,
      );
  });

  it('the additive check fails on a removed, retyped or no longer required field', () => {
    const before: JsonSchema = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'array', items: { type: 'number' } } },
      required: ['a', 'b'],
    };
    assert.deepEqual(
      breakingChanges(before, { type: 'object', properties: { b: { type: 'array', items: { type: 'string' } } } }),
      ['/a: no longer required', '/b: no longer required', '/a: removed', '/b[]: type "number" became "string"'],
    );
    assert.deepEqual(addedFields(before, { ...before, properties: { ...(before.properties as object), c: {} } }), [
      '/c',
    ]);
  });

  it('in tests and development builds, callTool refuses an answer with an undeclared field, loudly', async () => {
    assert.equal(validatesOutput({ WSCTX_VALIDATE_OUTPUT: '1' }), true);
    assert.equal(validatesOutput({ NODE_ENV: 'development' }), true);
    assert.equal(validatesOutput({}), false);
    assert.equal(validatesOutput(), true, 'the test run validates (test/helpers/testEnv.ts)');
    const leaky: AnyToolDefinition = {
      name: 'leaky',
      title: 'Leaky',
      description: 'An answer with a field its schema does not declare.',
      input: {},
      output: { items: z.array(z.object({ name: z.string() })) },
      run: async () => ({ items: [{ name: 'a', matched: 'b' }] }),
      unreadable: () => ({ items: [] }),
      renderText: () => '',
    };
    const folder = tempDir('leaky');
    write(folder, 'docs/index.md', '# Index\n');
    const engine = new Engine({ folders: [{ name: 'leaky', absPath: folder }], embeddings: { provider: 'off' } });
    try {
      await assert.rejects(
        callTool(createServices({ engine }), leaky, {}, { sessionId: 'test' }),
        (error: Error) =>
          error instanceof OutputContractError &&
          error.message ===
            "leaky's answer does not match its published output schema (strict clients would reject it): /items/0: must NOT have additional properties (matched)",
      );
    } finally {
      engine.dispose();
    }
  });
});
