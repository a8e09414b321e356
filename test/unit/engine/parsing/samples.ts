/**
 * Source samples with their comments and strings marked: `«...»` around a comment, `‹...›` around
 * a string (a string split by an interpolation is two marked parts). `marked()` strips the marks
 * and returns the text and the exact ranges both readers must find.
 */
import type { TextRange } from '../../../../server/src/engine/parsing/languages';

export interface Sample {
  path: string;
  text: string;
  ranges: TextRange[];
}

/** The text without marks and the marked ranges as UTF-16 offsets into it. */
export function marked(path: string, source: string): Sample {
  let text = '';
  const ranges: TextRange[] = [];
  let open: { start: number; kind: TextRange['kind'] } | null = null;
  for (const char of source) {
    if (char === '«' || char === '‹') {
      if (open) throw new Error(`nested mark in ${path}`);
      open = { start: text.length, kind: char === '«' ? 'comment' : 'string' };
    } else if (char === '»' || char === '›') {
      if (!open || open.kind !== (char === '»' ? 'comment' : 'string')) throw new Error(`unbalanced mark in ${path}`);
      ranges.push({ start: open.start, end: text.length, kind: open.kind });
      open = null;
    } else {
      text += char;
    }
  }
  if (open) throw new Error(`unclosed mark in ${path}`);
  return { path, text, ranges };
}

/** One sample per tree-sitter grammar; each also writes a ref in code that must not count. */
export const GRAMMAR_SAMPLES: readonly Sample[] = [
  marked(
    'src/worker.ts',
    [
      '«// Entry point of component:billing-worker, é😀 and more.»',
      'const route = { component:checkout };',
      'const label: string = ‹\'api:ledger-api\'› + ‹"it\\"s"›;',
      'const t = ‹`served by ›${ {component:nested} }‹ and ›${‹"resource:queue"›}‹`›;',
      '«/** Calls group:payments. */»',
      'const ratio = a / b / c; const re = /x"y/g; «// tail»',
      '',
    ].join('\n'),
  ),
  marked(
    'web/App.tsx',
    [
      '«// component:storefront-bff»',
      'export const A = () => <div title=‹"component:x"›>{«/* api:y */»}{‹`t›${1}‹`›}</div>;',
      'const o = { component:inCode };',
      '',
    ].join('\n'),
  ),
  marked(
    'lib/index.mjs',
    ['«/** component:a */»', 'let s = ‹`a›${‹`n›${1}‹`›}‹b`›; «// tail»', 'const o = {component:inCode};', ''].join(
      '\n',
    ),
  ),
  marked(
    'app/ranking.py',
    [
      '«# Ranking for component:search-service»',
      'def rank(b, d):',
      '    ‹"""Docstring naming api:search-api.',
      '    Two lines."""›',
      "    component:billing_worker = {‹'a'›: 1}",
      '    return ‹f"a›{b!r:{d}}‹c{{d}}"› + ‹rb\'\\x\'›  «# c»',
      '',
    ].join('\n'),
  ),
  marked(
    'internal/posting/validate.go',
    [
      '«// Package posting validates entries before they reach resource:ledger-db.»',
      'package posting',
      '',
      'var a = ‹"component:x \\" y"› + ‹`raw api:y`›',
      'var p = T{component:one}',
      "var r = ‹'\\n'› «/* block */»",
      '',
    ].join('\n'),
  ),
  marked(
    'src/main/java/A.java',
    [
      '«/** Served by component:ledger-service. */»',
      'class A {',
      '  String s = ‹"""',
      '    text api:y',
      '    """›;',
      "  char c = ‹'\\''›; «// c»",
      '  void m() { component:for (;;) { break component; } }',
      '}',
      '',
    ].join('\n'),
  ),
  marked(
    'src/main/kotlin/ChargeController.kt',
    [
      '«// component:payments-gateway, POST /v3/charges»',
      'val s = ‹"a ›${b}‹ c \\" ›$d‹ e"› + ‹"""raw ›${‹"in"›}‹ ›$f‹"""›',
      '«/* k /* nested */ k */»',
      "val c = ‹'x'›",
      'val component:Int = 1',
      '',
    ].join('\n'),
  ),
  marked(
    'src/lib.rs',
    [
      '«/// Doc for component:ledger.»',
      "fn m<'a>(x: &'a str) -> Config {",
      '    let s = ‹r#"raw "q" api:x"#›; let t = ‹"a\\"b"›; let c = ‹\'x\'›; let b = ‹b"by"›;',
      '    Config { component:value }',
      '}',
      '«/* a /* b */ c */»',
      '',
    ].join('\n'),
  ),
  marked('crlf/server.go', '«// component:a\r»\npackage m\r\nvar s = ‹"x"›\r\n'),
  // Regular expressions against division: a quote inside a regex opens nothing.
  marked('lib/regex.js', 'x = a / b; y = /"/.test(s) ? ‹"q"› : c / 2; return /\'[/]\'/g;'),
  // Python string prefixes, f-string braces (`{{` is text, `\{` still opens), nested strings.
  marked('app/prefixes.py', "x = ‹Rb\"\\\"\"› + ‹rf'\\›{p}‹z{{}}'› + ‹F\"›{d[‹\"k\"›]:>{w}}‹\"› + ‹u'''a'''›\n"),
  // A Rust lifetime is code; a character literal (any escape) is a string.
  marked('src/chars.rs', "fn f<'a>(x: &'a str) { let c = ‹'\\u{1F600}'›; let d = ‹'\\''›; }\n"),
];

/** Languages read only by the plain scanner (no grammar here). */
export const PLAIN_SAMPLES: readonly Sample[] = [
  marked(
    'proto/ledger.proto',
    '«// api:ledger-api, served by component:ledger-service.»\nsyntax = ‹"proto3"›;\nmessage M { string component = 1; «/* c */» }\n',
  ),
  marked('db/schema.sql', "SELECT ‹'it''s'›, ‹\"col\"› «-- component:x»\nFROM t «/* b */»;\n"),
  marked(
    'scripts/run.sh',
    '«# component:x»\necho ‹"a \\" b"› ‹\'c\'› a#b ${#v}\ncat <<EOF | sort\n‹body component:y\n›EOF\necho done\n',
  ),
  marked('Dockerfile', '«# Image of component:billing-worker»\nFROM node:20\nLABEL owner=‹"group:payments"›\n'),
  marked(
    'infra/main.tf',
    '«# FIFO queue for resource:payments-queue»\nresource ‹"aws_sqs_queue"› ‹"q"› {\n  «// d»\n  policy = <<-EOT\n‹    {"a": 1}\n›  EOT\n}\n',
  ),
  marked('compose.yaml', "«# component:x»\nkey: ‹'it''s'›\nplain: it's here «# c»\nurl: a#b\nlist: [‹\"q\"›]\n"),
  marked('src/A.cs', 'var p = ‹@"C:\\dir ""q"""›; «// c»\nvar c = ‹\'x\'›;\n'),
  marked('pyproject.toml', 'name = ‹"x"› «# c»\nlit = ‹\'C:\\path\'›\nml = ‹"""\na\n"""›\n'),
  marked('schema.graphql', '«# c»\n‹"""Description of api:x"""›\ntype A { f: String }\n'),
  marked('src/a.c', '«/* c */» char *s = ‹"a\\"b"›; char c = ‹\'\\\'\'›; «// d»\n'),
  marked('lib/a.rb', '«# c»\nputs ‹"x"›\n'),
  marked('src/A.swift', '«/* a /* b */ c */» let s = ‹"x"›\n'),
];
