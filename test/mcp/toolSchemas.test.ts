/**
 * What an agent sees of every tool over the real MCP SDK client: the published input schemas carry
 * every range and closed set, and every refusal names the field and says what is allowed in the
 * tool's own words (never the SDK's "Input validation error ... expected string").
 */
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callWhenWarm, connectStdio, type StdioSession } from '../helpers/mcpClients';
import { EXAMPLE_WORKSPACE } from '../helpers/tempWorkspace';

type JsonSchema = {
  type?: string;
  minimum?: number;
  maximum?: number;
  enum?: string[];
  items?: JsonSchema;
  maxItems?: number;
  maxLength?: number;
  minLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: unknown;
};

function firstText(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as { type: string; text: string }[])[0].text;
}

describe('MCP tool input schemas and refusals (built server, SDK client)', () => {
  let session: StdioSession;
  let schemas: Map<string, JsonSchema>;
  let descriptions: Map<string, string>;
  before(async () => {
    session = await connectStdio(EXAMPLE_WORKSPACE);
    await callWhenWarm(session.client, 'workspace_context', { workspace: 'fernhill', question: 'billing' });
    const { tools } = await session.client.listTools();
    schemas = new Map(tools.map((t) => [t.name, t.inputSchema as JsonSchema]));
    descriptions = new Map(tools.map((t) => [t.name, t.description ?? '']));
  });
  after(async () => {
    await session.close();
  });

  it('publishes the real minimum and maximum of every number, and every closed set as an enum', () => {
    const field = (tool: string, name: string) => schemas.get(tool)!.properties![name];
    assert.deepEqual(field('workspace_context', 'limit'), {
      type: 'integer',
      minimum: 1,
      maximum: 50,
      description: 'How many passages, 1 to 50 (default 10).',
    });
    assert.deepEqual(
      {
        type: field('workspace_expand', 'depth').type,
        minimum: field('workspace_expand', 'depth').minimum,
        maximum: field('workspace_expand', 'depth').maximum,
      },
      { type: 'integer', minimum: 1, maximum: 3 },
    );
    assert.deepEqual(
      [field('workspace_expand', 'limit').minimum, field('workspace_expand', 'limit').maximum],
      [1, 100],
    );
    assert.deepEqual(
      [field('get_context', 'max_tokens').minimum, field('get_context', 'max_tokens').maximum],
      [1000, 30000],
    );
    assert.deepEqual(field('workspace_expand', 'direction').enum, ['out', 'in', 'both']);
    assert.deepEqual(field('get_context', 'format').enum, ['markdown', 'json']);
    assert.deepEqual(field('search_instructions', 'profile').enum, ['focused', 'catalog']);
    assert.deepEqual(field('workspace_context', 'sourceKinds').items!.enum, [
      'catalog_entity',
      'catalog_doc',
      'repo_overview',
      'epic_doc',
      'library',
    ]);
    assert.equal(field('workspace_context', 'sourceKinds').maxItems, 50);
    assert.deepEqual(field('workspace_expand', 'edgeTypes').items!.enum!.slice(0, 4), [
      'dependsOn',
      'dependencyOf',
      'consumesApi',
      'apiConsumedBy',
    ]);
    assert.equal(field('workspace_expand', 'entityRef').maxLength, 512);
    // workspace_context's workspace may be left out: every served folder answers.
    assert.deepEqual(schemas.get('workspace_context')!.required, ['question']);
    // No number anywhere without both bounds; no tool takes arguments it does not list.
    for (const [tool, schema] of schemas) {
      assert.equal(schema.additionalProperties, false, tool);
      for (const [name, prop] of Object.entries(schema.properties ?? {})) {
        if (prop.type !== 'integer' && prop.type !== 'number') continue;
        assert.ok(
          prop.minimum !== undefined && prop.minimum > -1e15 && prop.maximum !== undefined && prop.maximum < 1e15,
          `${tool}.${name}: ${JSON.stringify(prop)}`,
        );
      }
    }
  });

  it('refuses wrong types, ranges, words and arguments with the field and what is allowed', async () => {
    const refused = async (name: string, args: Record<string, unknown>) => {
      const result = await session.client.callTool({ name, arguments: args });
      assert.equal(result.isError, true, JSON.stringify(args));
      return firstText(result);
    };
    assert.equal(
      await refused('workspace_context', { workspace: 'fernhill', question: 42 }),
      'Invalid input for workspace_context: question: must be text (a JSON string), not number 42',
    );
    assert.equal(
      await refused('workspace_context', { workspace: 'fernhill' }),
      'Invalid input for workspace_context: question: is required',
    );
    assert.equal(
      await refused('workspace_context', { workspace: 'fernhill', question: 'x', limit: '5' }),
      'Invalid input for workspace_context: limit: must be a whole number from 1 to 50 (the default is 10)',
    );
    assert.equal(
      await refused('workspace_context', { workspace: 'fernhill', question: 'x', limit: 0 }),
      'Invalid input for workspace_context: limit: must be a whole number from 1 to 50 (the default is 10)',
    );
    assert.equal(
      await refused('workspace_expand', { workspace: 'fernhill', entityRef: 'billing-worker', depth: 2.5 }),
      'Invalid input for workspace_expand: depth: must be a whole number from 1 to 3 (the default is 1); deeper walks are refused, never clamped (a smaller graph would look complete): expand again from an entity at the edge',
    );
    assert.equal(
      await refused('workspace_expand', { workspace: 'fernhill', entityRef: 'billing-worker', direction: 'up' }),
      'Invalid input for workspace_expand: direction: "up" is not a direction; use one of out, in, both',
    );
    assert.equal(
      await refused('get_context', { task: 'review the billing-worker rollback runbook', format: 'xml' }),
      'Invalid input for get_context: format: "xml" is not a format; use one of markdown, json',
    );
    assert.equal(
      await refused('workspace_context', { workspace: 'fernhill', question: 'x', sourceKinds: 'docs' }),
      'Invalid input for workspace_context: sourceKinds: must be a list',
    );
    assert.equal(
      await refused('get_section', { id: 'abcd', extra: true }),
      'Invalid input for get_section: input: "extra" is not an argument of get_section; it takes id',
    );
    for (const text of [await refused('workspace_context', { workspace: 'fernhill', question: 42 })])
      assert.doesNotMatch(text, /MCP error|-32602|expected string/);
  });

  it('every description and argument description speaks of services, APIs, runbooks and rules, none of sales', () => {
    assert.deepEqual(
      [...descriptions.keys()],
      [
        'workspace_context',
        'workspace_expand',
        'get_context',
        'read_page',
        'get_file',
        'get_toc',
        'get_section',
        'search_instructions',
        'explain_result',
      ],
    );
    const SALES =
      /\b(e-?mails?|CFO|Slotly|Avalara|customers?|refunds?|competitors?|audience|channel|prospects?|sales|pricing|discounts?|promo)\b/i;
    const SOFTWARE =
      /\b(services?|API|APIs|runbooks?|rules?|deploy|entity|catalog|migration|postmortem|billing-worker|OpenAPI)\b/;
    for (const [tool, description] of descriptions) {
      const texts = [
        description,
        ...Object.values(schemas.get(tool)!.properties ?? {}).map(
          (p) => (p as { description?: string }).description ?? '',
        ),
      ];
      for (const text of texts) assert.doesNotMatch(text, SALES, `${tool}: ${text}`);
      assert.match(texts.join(' '), SOFTWARE, tool);
      // Every quoted example (a task, a plan, a question) names software work.
      for (const [example] of texts.join(' ').matchAll(/(?:e\.g\.|short:|sentence:) "[^"]+"/g))
        assert.match(
          example,
          /billing-worker|API|deploy|migration|postmortem|invoice|webhook|"\.context\/guides"/,
          `${tool}: ${example}`,
        );
    }
    const examples = [...descriptions]
      .flatMap(([tool]) => [
        descriptions.get(tool)!,
        ...Object.values(schemas.get(tool)!.properties ?? {}).map(
          (p) => (p as { description?: string }).description ?? '',
        ),
      ])
      .join(' ')
      .match(/(?:e\.g\.|short:|sentence:) "/g);
    assert.ok(examples && examples.length >= 6, `examples found: ${examples?.length}`);
    assert.match(descriptions.get('get_context')!, /"roll back billing-worker after a failed deploy"/);
  });

  it('an unknown workspace is an error that lists the served names', async () => {
    const result = await session.client.callTool({
      name: 'workspace_expand',
      arguments: { workspace: 'payments', entityRef: 'billing-worker' },
    });
    assert.equal(result.isError, true);
    assert.equal(
      firstText(result),
      "workspace: this server does not serve a workspace named 'payments'; it serves 'fernhill' (give one of these names or its path).",
    );
  });
});
