/**
 * The REST API of `wsctx serve` (docs/rest.md), against the built server over the example
 * workspace: the bundle as Markdown and as JSON with every page's reason and each searched
 * section's similarity, GET and POST alike, workspace_context likewise, the same gates as MCP
 * (401 without the token, 403 for a foreign Origin), refusals in the tools' words, and the
 * OpenAPI description the server serves describing what it answers.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { connectHttp, startHttpServer, type HttpServerProcess, callWhenWarm } from '../helpers/mcpClients';
import { EXAMPLE_WORKSPACE } from '../helpers/tempWorkspace';

const TASK = 'roll back billing-worker after a failed deploy';

interface Page {
  id: string;
  path: string;
  reason: string;
  whole: boolean;
  sections: { id: string; reachedBy: string; similarity?: number }[];
}

describe('the REST API (wsctx serve, built server)', function () {
  this.timeout(120_000);
  let server: HttpServerProcess;
  let base: string;
  const get = (route: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${route}`, { headers: { authorization: `Bearer ${server.token}`, ...headers } });
  const post = (route: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${route}`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', ...headers },
    });

  before(async () => {
    server = await startHttpServer(EXAMPLE_WORKSPACE);
    base = server.url.replace(/\/mcp$/, '');
    const client = await connectHttp(server.url, server.token);
    try {
      await callWhenWarm(client, 'workspace_context', { question: 'warm up' });
    } finally {
      await client.close();
    }
  });
  after(() => server.stop());

  it('GET /context: the bundle as Markdown by default', async () => {
    const response = await get(`/context?task=${encodeURIComponent(TASK)}&budget=4000`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/markdown; charset=utf-8');
    const text = await response.text();
    assert.match(text, /^# Instructions from the fernhill team\n/);
    assert.match(text, /\n# Rules \(always follow\)\n/);
    assert.match(text, /\n# Reference\n/);
    assert.match(text, /rule · full page · page_id: [0-9a-f]{8}/);
  });

  it('GET /context with Accept: application/json: every page with its reason, each searched section with its similarity', async () => {
    const response = await get(`/context?task=${encodeURIComponent(TASK)}&budget=4000`, {
      accept: 'application/json',
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
    const bundle = (await response.json()) as {
      format: string;
      maxTokens: number;
      markdown?: string;
      pages: Page[];
      judge: { verdicts?: unknown };
    };
    assert.equal(bundle.format, 'json');
    assert.equal(bundle.maxTokens, 4000);
    assert.equal(bundle.markdown, undefined);
    assert.equal(bundle.judge.verdicts, undefined, 'the verdicts stay in the call log');
    const reasons = new Set(bundle.pages.map((p) => p.reason));
    assert.ok(reasons.has('rule'), [...reasons].join(', '));
    for (const page of bundle.pages)
      assert.ok(['rule', 'pinned', 'recipe', 'use', 'link', 'folder', 'search', 'entity'].includes(page.reason));
    const searched = bundle.pages.flatMap((p) => p.sections.filter((s) => s.reachedBy === 'search'));
    assert.ok(searched.length > 0, 'some section came by search');
    for (const s of searched) assert.equal(typeof s.similarity, 'number', s.id);
  });

  it('POST /context takes the tool’s arguments as a JSON body and answers as GET does', async () => {
    const viaGet = (await (
      await get(`/context?task=${encodeURIComponent(TASK)}&budget=4000&tags=deploy`, { accept: 'application/json' })
    ).json()) as { pages: Page[] };
    const viaPost = (await (
      await post('/context', JSON.stringify({ task: TASK, max_tokens: 4000, tags: ['deploy'] }), {
        accept: 'application/json',
      })
    ).json()) as { pages: Page[] };
    assert.deepEqual(
      viaPost.pages.map((p) => [p.id, p.reason]),
      viaGet.pages.map((p) => [p.id, p.reason]),
    );
    const markdown = await post('/context', JSON.stringify({ task: TASK, budget: 4000 }));
    assert.equal(markdown.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.match(await markdown.text(), /^# Instructions from the fernhill team\n/);
  });

  it('POST /context with a change (changes.changedPaths, no task): the owning entity with its owner, its runbooks, each with its reason', async () => {
    const BW = 'payments-platform/services/billing-worker';
    const response = await post('/context', JSON.stringify({ changes: { changedPaths: [`${BW}/src/worker.ts`] } }), {
      accept: 'application/json',
    });
    assert.equal(response.status, 200);
    const bundle = (await response.json()) as {
      changes: {
        entities: { ref: string; owner?: string }[];
        items: { reason: string; ref?: string; path?: string }[];
      };
    };
    assert.deepEqual(
      bundle.changes.entities.map((e) => [e.ref, e.owner]),
      [['component:default/billing-worker', 'group:default/payments-team']],
    );
    assert.deepEqual(
      bundle.changes.items.filter((i) => i.reason === 'runbook').map((i) => i.path),
      [`${BW}/docs/runbooks/alerts.md`, `${BW}/docs/runbooks/deploy.md`, `${BW}/docs/runbooks/dunning.md`],
    );
    const markdown = await post('/context', JSON.stringify({ changes: { changedPaths: [`${BW}/src/worker.ts`] } }));
    assert.equal(markdown.status, 200);
    assert.match(
      await markdown.text(),
      /\n# The change\n\n1 changed file \(as named\): 1 in 1 entity, 0 owned by none\.\n/,
    );
  });

  it('GET /workspace_context: ranked passages, as Markdown or JSON', async () => {
    const question = encodeURIComponent('who owns the billing worker?');
    const markdown = await (await get(`/workspace_context?question=${question}&limit=3`)).text();
    assert.match(markdown, /^## 1\. .+ {2}\[[0-9a-f]{8}\]\nscore \d\.\d{3} · /);
    const json = (await (
      await get(`/workspace_context?question=${question}&limit=3&sourceKinds=catalog_entity`, {
        accept: 'application/json',
      })
    ).json()) as { passages: { sourceKind: string; why: unknown[] }[]; contractVersion: string };
    assert.equal(json.passages.length, 3);
    for (const p of json.passages) assert.equal(p.sourceKind, 'catalog_entity');
    assert.ok(json.passages[0].why.length > 0);
    assert.match(json.contractVersion, /^\d{4}-\d{2}-\d{2}/);
  });

  it('the same gates as MCP: 401 without the token or with another, 403 for an Origin not allowed', async () => {
    const none = await fetch(`${base}/context?task=x`);
    assert.equal(none.status, 401);
    assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="workspace-context"');
    const wrong = await fetch(`${base}/workspace_context?question=x`, {
      headers: { authorization: `Bearer ${'0'.repeat(64)}` },
    });
    assert.equal(wrong.status, 401);
    const openapi = await fetch(`${base}/openapi.json`);
    assert.equal(openapi.status, 401);
    const foreign = await get('/context?task=x', { origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
  });

  it('refuses what it cannot answer with a status and one line saying why', async () => {
    const refusal = async (response: Response, status: number, body: string | RegExp) => {
      assert.equal(response.status, status);
      const text = await response.text();
      if (typeof body === 'string') assert.equal(text, body);
      else assert.match(text, body);
    };
    await refusal(
      await get('/context?task=x&budget=500'),
      400,
      'error: Invalid input for get_context: max_tokens (budget): must be a whole number from 1,000 to 30,000 (the default is 12,000)\n',
    );
    // Neither a task nor a change (a change may come without a task).
    await refusal(
      await get('/context?budget=2000'),
      400,
      'error: task or changes: describe what you are about to do in plain words (task), or give the change (changes: changedPaths or diff)\n',
    );
    await refusal(
      await get('/workspace_context?question=x&colour=blue', { accept: 'application/json' }),
      400,
      '{"error":"Invalid input for workspace_context: input: \\"colour\\" is not an argument of workspace_context; it takes workspace, question, limit, asOf, sourceKinds"}\n',
    );
    await refusal(
      await get('/context?task=x&format=xml'),
      400,
      'error: format: "xml" is not a format; use one of markdown, json\n',
    );
    await refusal(await get('/context?task=x', { accept: 'image/png' }), 406, /^error: Accept: image\/png: /);
    await refusal(
      await post('/context', 'task=x', { 'content-type': 'text/plain' }),
      415,
      /Content-Type: application\/json/,
    );
    await refusal(await post('/context', '{"task":'), 400, /^error: the body is not JSON: /);
    await refusal(await post('/context', '["x"]'), 400, /^error: the body must be a JSON object of arguments/);
    await refusal(
      await post('/context', JSON.stringify({ budget: 2000, max_tokens: 3000, task: 'x' })),
      400,
      /given twice/,
    );
    const put = await fetch(`${base}/context`, { method: 'PUT', headers: { authorization: `Bearer ${server.token}` } });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'GET, POST');
  });

  it('serves an OpenAPI 3.1 description whose answer schemas the answers meet', async () => {
    const response = await get('/openapi.json');
    assert.equal(response.status, 200);
    const document = (await response.json()) as {
      openapi: string;
      servers: { url: string }[];
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, object> };
    };
    assert.equal(document.openapi, '3.1.0');
    assert.deepEqual(document.servers, [{ url: base }]);
    assert.deepEqual(Object.keys(document.paths), ['/context', '/workspace_context', '/openapi.json']);
    const meta = JSON.parse(
      fs.readFileSync(path.join(__dirname, '../fixtures/openapi-3.1-schema/schema.json'), 'utf8'),
    ) as object;
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    const validDocument = ajv.compile(meta);
    assert.ok(validDocument(document), JSON.stringify(validDocument.errors?.slice(0, 5)));
    const answers: [string, string][] = [
      ['GetContextAnswer', `/context?task=${encodeURIComponent(TASK)}`],
      ['WorkspaceContextAnswer', `/workspace_context?question=${encodeURIComponent('billing-worker deploys')}`],
    ];
    for (const [name, route] of answers) {
      const validAnswer = new Ajv2020({ strict: false, allErrors: true }).compile(document.components.schemas[name]);
      const answer = await (await get(route, { accept: 'application/json' })).json();
      assert.ok(validAnswer(answer), `${name}: ${JSON.stringify(validAnswer.errors?.slice(0, 5))}`);
    }
  });
});
