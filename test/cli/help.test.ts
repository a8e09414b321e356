/**
 * `wsctx <command> --help` for every command, and bad input as a person meets it: one line on
 * stderr, in the command line's words (its flags, not the MCP tools' argument names), exit 1.
 */
import assert from 'node:assert/strict';
import { parseCommandLine } from '../../server/src/startup/args';
import { COMMANDS } from '../../server/src/startup/commands';
import { wsctx } from '../helpers/cli';
import { EXAMPLE_WORKSPACE } from '../helpers/tempWorkspace';

const WS = ['--workspace', EXAMPLE_WORKSPACE];

describe('wsctx <command> --help', () => {
  it('lists every command in wsctx --help, each with its arguments', () => {
    const run = wsctx(['--help']);
    assert.equal(run.code, 0);
    for (const c of COMMANDS)
      assert.match(
        run.stdout,
        new RegExp(`\\n  ${c.name}${c.args ? ` ${c.args.replace(/[[\]"<>]/g, '\\$&')}` : ''} +\\S`),
        c.name,
      );
  });

  for (const command of COMMANDS) {
    it(`${command.name} --help: usage, what it does, its flags with defaults, examples that parse`, () => {
      const run = wsctx([command.name, '--help'], { env: { COLUMNS: '80' } });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stderr, '');
      const lines = run.stdout.split('\n');
      assert.equal(lines[0], `wsctx ${command.name}${command.args ? ` ${command.args}` : ''} [flags]`);
      assert.deepEqual(
        lines.filter((l) => l.length > 80),
        [],
        'wider than $COLUMNS',
      );
      for (const f of command.flags)
        assert.match(run.stdout, new RegExp(`\\n  ${f.flag.replace(/[|.*+?^${}()[\]\\]/g, '\\$&')} +\\S`), f.flag);
      const examples = lines.slice(lines.indexOf('Examples:') + 1).filter(Boolean);
      assert.ok(examples.length > 0, 'no example');
      for (const example of examples) {
        // Each example is a command line the parser accepts for this command.
        const words = [...example.trim().matchAll(/"[^"]*"|\S+/g)].map((m) => m[0].replace(/^"|"$/g, ''));
        assert.equal(words[0], 'wsctx');
        if (words.includes('|') || words.includes('>')) words.splice(words.findIndex((w) => w === '|' || w === '>'));
        assert.equal(parseCommandLine(words.slice(1)).command, command.name, example);
      }
      // `wsctx help <command>` prints the same, at the same width (the run above is `<command> --help`).
      assert.equal(wsctx(['help', command.name], { env: { COLUMNS: '80' } }).stdout, run.stdout);
    });
  }
});

describe('wsctx: bad input is one line naming the flag, exit 1', () => {
  const cases: [string[], string | RegExp][] = [
    [['serve', '--port', '99999'], 'wsctx: --port must be from 0 to 65535 (got 99999); 0 picks a free port'],
    [['ask', 'refunds', '--limit', 'x'], 'wsctx: --limit must be a whole number (got "x")'],
    [['ask', 'refunds', '--limit', '0'], 'wsctx: --limit: must be a whole number from 1 to 50 (the default is 10)'],
    [
      ['ask', 'refunds', '--in', 'nope'],
      /^wsctx: --in: this server does not serve a workspace named 'nope'; it serves 'fernhill'/,
    ],
    [
      ['ask', 'refunds', '--depth', '2'],
      'wsctx: --depth is not a flag of wsctx ask (wsctx ask --help lists its flags)',
    ],
    [['ask', 'refunds', '--frob'], /^wsctx: --frob is not a flag of wsctx \(wsctx --help lists them\)$/],
    [['ask', 'refunds', '--limit'], 'wsctx: --limit needs a value'],
    [
      ['context', 'write a postmortem', '--max-tokens', '10'],
      'wsctx: --max-tokens: must be a whole number from 1,000 to 30,000 (the default is 12,000)',
    ],
    [
      ['page', 'zz'],
      `wsctx: "zz" is not an id; ids are hexadecimal, printed with 8 characters (for example "3f2a9c1e"). wsctx toc lists them.`,
    ],
    [['toc', '--document', 'zz'], /^wsctx: --document: "zz" is not an id;.*wsctx toc lists them\.$/],
    [
      ['expand', 'billing-worker', '--direction', 'up'],
      'wsctx: --direction: "up" is not a direction; use one of out, in, both',
    ],
    [['expand'], 'wsctx: expand takes exactly one <entity-ref>, e.g. wsctx expand billing-worker'],
    [['graph', '--format', 'svg'], 'wsctx: --format must be text, json or dot (got "svg")'],
    [['doctor', 'extra'], 'wsctx: doctor takes no arguments (got "extra"); wsctx doctor --help lists its flags'],
    [
      ['search', ''],
      'wsctx: search takes a plan (got an empty one), e.g. wsctx search "writing a migration for billing-worker"',
    ],
    [['help', 'frobnicate'], 'wsctx: unknown command "frobnicate" (wsctx --help lists the commands)'],
  ];
  for (const [args, expected] of cases) {
    it(`wsctx ${args.join(' ')}`, () => {
      const run = wsctx([...args, ...WS]);
      assert.equal(run.code, 1, run.stderr);
      assert.equal(run.stdout, '');
      assert.equal(run.stderr.split('\n').length, 2, `not one line: ${run.stderr}`);
      if (typeof expected === 'string') assert.equal(run.stderr, `${expected}\n`);
      else assert.match(run.stderr.trimEnd(), expected);
      assert.doesNotMatch(run.stderr, /internal error|page_id|max_tokens|get_toc\(|Invalid input for/);
    });
  }
});
