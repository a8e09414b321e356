import assert from 'node:assert/strict';
import { ActivityLog } from '../../../server/src/library/activity/activityLog';
import { documentId } from '../../../server/src/engine/chunking/ids';
import { Engine } from '../../../server/src/engine/engine';
import type { ContextLogDetails } from '../../../server/src/library/context/contextDiagnostics';
import { PrivateNotes } from '../../../server/src/library/context/privateNotes';
import { InputError } from '../../../server/src/engine/errors';
import { DelegatingModelProvider } from '../../../server/src/library/models/delegatingProvider';
import { contextCommand } from '../../../server/src/cli/commands/contextCommand';
import { createServices, type Services } from '../../../server/src/services/services';
import { callTool } from '../../../server/src/tools/callTool';
import type { ContextCallContext, GetContextOutput } from '../../../server/src/tools/getContext';
import { findTool, TOOLS } from '../../../server/src/tools/registry';
import { ToolInputError } from '../../../server/src/tools/toolError';
import { removeTempDirs, tempDir, write } from '../../helpers/tempWorkspace';
import { COLD_EMAIL, TAXWELL } from '../library/context/herald';

const NOW = new Date('2026-06-01T12:00:00Z');

describe('get_context (tool)', function () {
  this.timeout(60_000);
  let engine: Engine;
  let services: Services;
  let log: ActivityLog;
  const tool = findTool('get_context')!;
  const call = async (args: Record<string, unknown>, sessionId = 'cli', on = services) =>
    (await callTool(on, tool, args, { sessionId })) as GetContextOutput;

  before(async () => {
    engine = new Engine({ folders: [{ name: 'taxwell', absPath: TAXWELL }], settings: { refreshAfterMs: 0 } });
    await engine.waitForIndex();
    log = new ActivityLog(tempDir('activity'), { clock: () => NOW });
    services = createServices({ engine, now: () => NOW, activity: log });
  });
  after(() => {
    engine.dispose();
    removeTempDirs();
  });

  it('is registered with get_context, read_page and get_file, and its inputs as its contract names them (docs/ARCHITECTURE.md)', () => {
    assert.deepEqual(
      TOOLS.map((t) => t.name).filter((n) => ['get_context', 'read_page', 'get_file'].includes(n)),
      ['get_context', 'read_page', 'get_file'],
    );
    assert.deepEqual(Object.keys(tool.input), ['task', 'changes', 'max_tokens', 'pack', 'tags', 'folder', 'format']);
  });

  it('answers Markdown by default (the text is the bundle) and JSON on request', async () => {
    const md = await call({ task: COLD_EMAIL });
    assert.equal(md.format, 'markdown');
    assert.equal(tool.renderText(md), md.markdown);
    assert.match(md.markdown!, /^# Instructions from the taxwell team\n/);
    const json = await call({ task: COLD_EMAIL, format: 'json' });
    assert.equal(json.markdown, undefined);
    const parsed = JSON.parse(tool.renderText(json)) as GetContextOutput;
    assert.deepEqual(
      parsed.pages.map((p) => p.reason),
      ['rule', 'rule', 'pinned', 'recipe', 'search', 'search', 'link', 'use'],
    );
    assert.equal(parsed.pages[0].text, '- Every price you state comes from the price list, with its plan name.');
    assert.equal(parsed.tokens, md.tokens);
    assert.equal(parsed.indexedAt, engine.current()!.indexedAt);
    assert.deepEqual(parsed.steps, { plan: 'heuristic', judge: 'heuristic', meaning: false });
  });

  it('refuses bad input with a message naming the field', async () => {
    for (const [args, message] of [
      [
        { task: COLD_EMAIL, max_tokens: 999 },
        'Invalid input for get_context: max_tokens: must be a whole number from 1,000 to 30,000 (the default is 12,000)',
      ],
      [
        { task: COLD_EMAIL, max_tokens: 30_001 },
        'Invalid input for get_context: max_tokens: must be a whole number from 1,000 to 30,000 (the default is 12,000)',
      ],
      [
        { task: COLD_EMAIL, max_tokens: 2000.5 },
        'Invalid input for get_context: max_tokens: must be a whole number from 1,000 to 30,000 (the default is 12,000)',
      ],
    ] as const) {
      await assert.rejects(call(args), (e: Error) => e instanceof ToolInputError && e.message === message);
    }
    // Neither a task nor a change: the refusal names both fields.
    for (const args of [{ task: '' }, {}, { task: '   ' }])
      await assert.rejects(
        call(args),
        (e: Error) => e instanceof ToolInputError && /^task or changes: /.test(e.message),
      );
    await assert.rejects(
      call({ task: 'x', format: 'xml' }),
      (e: Error) => e instanceof ToolInputError && /^Invalid input for get_context: format: /.test(e.message),
    );
    await assert.rejects(
      call({ task: 'x', pack: 'Nope' }),
      (e: Error) => e instanceof InputError && e.message.startsWith('pack: no pack is named "Nope".'),
    );
    await assert.rejects(
      call({ task: 'x', surprise: 1 }),
      (e: Error) => e instanceof ToolInputError && /surprise/.test(e.message),
    );
  });

  it('logs each request with its plan, packs, verdicts and the provider of each step', async () => {
    const provider = new DelegatingModelProvider('scripted', async (request) => {
      if (request.messages[0].content.startsWith('You take apart a task'))
        return '{"names": [], "searches": ["pricing"], "constraints": []}';
      throw new Error('judge offline');
    });
    const before = log.read().length;
    await call({ task: 'what does the Growth plan cost per year', max_tokens: 3_000 }, 'agent-7', {
      ...services,
      models: provider,
    });
    const entries = log.read().slice(before);
    assert.equal(entries.length, 1);
    const entry = entries[0] as (typeof entries)[number] & { context: ContextLogDetails };
    assert.deepEqual(
      [entry.tool, entry.session, entry.input, entry.empty, entry.at],
      [
        'get_context',
        'agent-7',
        { task: 'what does the Growth plan cost per year', max_tokens: 3_000 },
        false,
        NOW.toISOString(),
      ],
    );
    assert.deepEqual(entry.context.steps, { plan: 'scripted', judge: 'heuristic', meaning: false });
    assert.deepEqual(entry.context.plan, { names: [], searches: ['pricing'], madeBy: 'scripted' });
    assert.deepEqual(
      [entry.context.judge.mode, entry.context.judge.provider, entry.context.judge.fallbackReason],
      ['gate', 'scripted', 'judge offline'],
    );
    assert.ok(entry.context.judge.verdicts.some((v) => v.kind === 'row' && v.from === 'heuristic'));
    const priceList = documentId('.context/reference/price-list.md');
    assert.ok(entry.resultIds.includes(priceList));
  });

  it("prefers the connection's own model provider (MCP sampling) for that call", async () => {
    const sampling = new DelegatingModelProvider('mcp-sampling', async (request) => {
      if (request.messages[0].content.startsWith('You take apart a task'))
        return '{"names": [], "searches": ["filing calendar"], "constraints": []}';
      return '{}';
    });
    const out = (await callTool(services, tool, { task: COLD_EMAIL, format: 'json' }, {
      sessionId: 'mcp-1',
      models: sampling,
    } as ContextCallContext)) as GetContextOutput;
    assert.deepEqual([out.plan.madeBy, out.plan.searches], ['mcp-sampling', ['filing calendar']]);
    const plain = await call({ task: COLD_EMAIL, format: 'json' });
    assert.equal(plain.plan.madeBy, 'heuristic');
  });

  it('names the organization after the workspace folder unless the host configures it', async () => {
    assert.match(
      (await call({ task: COLD_EMAIL }, 'cli', { ...services, organization: 'Taxwell Inc.' })).markdown!,
      /^# Instructions from the Taxwell Inc\. team\n/,
    );
    assert.match((await call({ task: COLD_EMAIL })).markdown!, /^# Instructions from the taxwell team\n/);
  });

  it("adds the user's own private notes on their own connections only, labelled as theirs", async () => {
    const dir = tempDir('notes');
    write(
      dir,
      'northwind.md',
      '---\ntitle: Northwind call notes\n---\n\n# Northwind call notes\n\n## Cold email follow-up\n\nThe CFO at Northwind wants a cold email about the Avalara filing delays.\n',
    );
    const withNotes: Services = {
      ...services,
      privateNotes: new PrivateNotes({ dir, isOwnConnection: (session) => session === 'vscode-chat' }),
    };
    const own = await call({ task: COLD_EMAIL, format: 'json' }, 'vscode-chat', withNotes);
    const note = own.pages.find((p) => p.private)!;
    assert.deepEqual([note.title, note.path, note.reason], ['Northwind call notes', '~notes/northwind.md', 'use']);
    const other = await call({ task: COLD_EMAIL, format: 'json' }, 'remote-agent', withNotes);
    assert.equal(
      other.pages.some((p) => p.private || p.title === 'Northwind call notes'),
      false,
    );
  });

  it('answers at once on a cold index, flagged index-cold', async () => {
    const cold = new Engine({ folders: [{ name: 'taxwell', absPath: TAXWELL }], settings: { refreshAfterMs: 0 } });
    try {
      const out = (await callTool(
        createServices({ engine: cold }),
        tool,
        { task: COLD_EMAIL },
        { sessionId: 'x' },
      )) as GetContextOutput;
      assert.deepEqual(out.degraded, ['index-cold']);
      assert.equal(tool.renderText(out), 'The index is still empty; indexing has started. Ask again in a moment.');
      await cold.waitForIndex();
    } finally {
      cold.dispose();
    }
  });

  it('wsctx context prints the Markdown bundle, or the JSON with --json', async () => {
    const text = await contextCommand(
      services,
      { task: COLD_EMAIL, maxTokens: 2_000, tags: ['avalara', 'persona'] },
      { json: false },
    );
    assert.match(text, /^# Instructions from the taxwell team\n[\s\S]*\n## Avalara battlecard\n/);
    assert.ok(
      text.includes('## Cite the price list'),
      'tags narrow the search, not the rules: untagged rules still come',
    );
    const json = JSON.parse(
      await contextCommand(services, { task: COLD_EMAIL, pack: 'Renewals', folder: 'guides' }, { json: true }),
    ) as GetContextOutput;
    // A folder limits everything: the rules (in .context/rules) stay out, the pinned glossary (in guides) comes.
    assert.deepEqual(
      json.pages.map((p) => [p.title, p.reason]),
      [
        ['Taxwell glossary', 'pinned'],
        ['Renewal playbook', 'recipe'],
        ['Discovery call', 'search'],
      ],
    );
    assert.equal(json.maxTokens, 12_000);
  });
});
