/**
 * Results documents: a `workspace_context` answer rendered as a read-only Markdown document under
 * the `workspace-context-results:` scheme. The client shows it through `workspace/textDocumentContent`;
 * hovering anywhere in a passage shows that passage's `why[]` table, term by term, summing to its
 * score.
 */
import type { Hover, Position } from 'vscode-languageserver';
import { markdownLinkTarget, markdownText } from '../../../../shared/markdown';
import { RESULTS_SCHEME, type ResultsDocumentInfo } from '../../../../shared/protocol';
import { passageMarkers, type ContextOutput, type ContextPassage } from '../../tools/workspaceContext';

/** Results documents kept (the oldest is forgotten first). Default 20. */
export const MAX_RESULTS_DOCUMENTS = 20;

interface PassageBlock {
  /** 0-based first and last line of the passage in the document. */
  startLine: number;
  endLine: number;
  rank: number;
  passage: ContextPassage;
}

interface ResultsDocument {
  uri: string;
  title: string;
  text: string;
  blocks: PassageBlock[];
}

export class ResultsStore {
  private readonly docs = new Map<string, ResultsDocument>();
  private counter = 0;

  /** Renders an answer and remembers it; returns where the client finds it. */
  create(answer: ContextOutput): ResultsDocumentInfo {
    const n = ++this.counter;
    const uri = `${RESULTS_SCHEME}:/${n}/${slug(answer.question)}.md`;
    const { text, blocks } = renderResults(answer);
    const title = `Workspace context: ${answer.question}`;
    this.docs.set(uri, { uri, title, text, blocks });
    while (this.docs.size > MAX_RESULTS_DOCUMENTS) this.docs.delete(this.docs.keys().next().value!);
    return { uri, title, passages: blocks.length };
  }

  /** Remembers a document whose text is already written (a get_context bundle): no passages to hover. */
  createText(title: string, name: string, text: string): ResultsDocumentInfo {
    const n = ++this.counter;
    const uri = `${RESULTS_SCHEME}:/${n}/${slug(name)}.md`;
    this.docs.set(uri, { uri, title, text, blocks: [] });
    while (this.docs.size > MAX_RESULTS_DOCUMENTS) this.docs.delete(this.docs.keys().next().value!);
    return { uri, title, passages: 0 };
  }

  /** The text of a results document, or null when it is unknown (forgotten, or another server's). */
  content(uri: string): string | null {
    return this.find(uri)?.text ?? null;
  }

  /** The `why[]` table of the passage under the cursor. */
  hover(uri: string, position: Position): Hover | null {
    const block = this.find(uri)?.blocks.find((b) => position.line >= b.startLine && position.line <= b.endLine);
    if (!block) return null;
    return {
      contents: { kind: 'markdown', value: renderWhy(block.rank, block.passage) },
      range: { start: { line: block.startLine, character: 0 }, end: { line: block.endLine, character: 0 } },
    };
  }

  private find(uri: string): ResultsDocument | undefined {
    // Clients may re-encode the URI (`%20`, case of the scheme); compare decoded forms.
    return (
      this.docs.get(uri) ??
      [...this.docs.values()].find((d) => safeDecode(d.uri).toLowerCase() === safeDecode(uri).toLowerCase())
    );
  }
}

/**
 * The document's text and where each passage sits in it. The question, titles, headings, paths
 * and passage text are the workspace's (or the asker's): each goes through shared/markdown.ts, so
 * the only link is each passage's own source.
 */
export function renderResults(answer: ContextOutput): { text: string; blocks: PassageBlock[] } {
  const lines: string[] = [`# Workspace context: ${markdownText(answer.question)}`, ''];
  const facts = [
    `${answer.passages.length} ${answer.passages.length === 1 ? 'passage' : 'passages'}`,
    `contract ${answer.contractVersion}`,
    `indexed ${answer.indexedAt ?? 'never'}`,
    ...(answer.degraded.length ? [`degraded: ${answer.degraded.join(', ')}`] : []),
  ];
  lines.push(facts.join(' · '), '');
  if (answer.notice) lines.push(markdownText(answer.notice), '');
  lines.push('Hover a passage to see how its score was made.', '');
  const blocks: PassageBlock[] = [];
  answer.passages.forEach((p, i) => {
    const startLine = lines.length;
    lines.push(`## ${i + 1}. ${markdownText(passageLabel(p))}`, '');
    lines.push(
      `score ${p.score.toFixed(3)} · ${p.sourceKind} · ${markdownText(`${p.sourceRef.path}:${p.sourceRef.startLine}-${p.sourceRef.endLine}`)}`,
      '',
    );
    lines.push(`[Open the source](${markdownLinkTarget(p.sourceUri)})`, '');
    for (const marker of passageMarkers(p)) lines.push(`**${markdownText(marker)}**`, '');
    for (const textLine of p.text.trimEnd().split('\n'))
      lines.push(textLine.trim() === '' ? '>' : `> ${markdownText(textLine)}`);
    blocks.push({ startLine, endLine: lines.length - 1, rank: i + 1, passage: p });
    lines.push('');
  });
  return { text: lines.join('\n'), blocks };
}

/** `Title › Heading › Sub-heading`, without repeating the title as a heading (plain text). */
export function passageLabel(p: Pick<ContextPassage, 'title' | 'headingPath'>): string {
  return [p.title, ...p.headingPath.filter((h) => h !== p.title)].join(' › ');
}

/** The hover: the passage's score term by term (trusted Markdown: every workspace value escaped). */
export function renderWhy(rank: number, p: ContextPassage): string {
  const lines = [`**${rank}. ${markdownText(passageLabel(p))}** · score ${p.score.toFixed(3)}`, ''];
  for (const marker of passageMarkers(p)) lines.push(`> ${markdownText(marker)}`, '');
  lines.push('| signal | weight | raw | contribution | detail |', '| --- | ---: | ---: | ---: | --- |');
  for (const w of p.why)
    lines.push(
      `| ${markdownText(w.signal)} | ${w.weight.toFixed(2)} | ${w.raw.toFixed(3)} | ${w.contribution.toFixed(3)} | ${markdownText(w.detail)} |`,
    );
  lines.push(`| **score** | | | **${p.score.toFixed(3)}** | |`);
  lines.push(
    '',
    markdownText(
      `${p.sourceRef.path}:${p.sourceRef.startLine}-${p.sourceRef.endLine}${p.sourceCommit ? ` @ ${p.sourceCommit.slice(0, 12)}${p.dirty ? ' (uncommitted changes)' : ''}` : ''}`,
    ),
  );
  return lines.join('\n');
}

function slug(question: string): string {
  const words = question
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return words.slice(0, 60).replace(/-+$/, '') || 'results';
}

function safeDecode(uri: string): string {
  try {
    return decodeURIComponent(uri);
  } catch {
    return uri;
  }
}
