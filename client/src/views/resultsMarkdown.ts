/**
 * What the results view shows, as Markdown: a question's ranked passages (each with its place, its
 * text and its whole `why[]` table, term by term, summing to the score) and an `explain_result`
 * answer ("Why not this page?": the fix first, then why, then the page's best section and what
 * ranked above it). Pure; resultsView.ts renders it.
 *
 * Workspace text goes through shared/markdown.ts, and a passage's own Markdown through
 * passageMarkdown.ts. The only links are the ones written here, to places in the workspace: each is
 * registered in a {@link LinkTable} and written as `wsctx-open:<n>`, which the view maps back to its
 * place, so no text on the page can name what a click opens.
 *
 * Imports no `vscode`.
 */
import { markdownCode, markdownText } from '../../../shared/markdown';
import type { SearchPassage, SearchResult, WhyTerm } from '../../../shared/protocol';
import { passageMarkdown } from './passageMarkdown';

/** Where a link in the view goes: a `file:` URI with `#Lstart-Lend`, or a workspace-relative path and line. */
export type LinkTarget = { uri: string } | { path: string; line: number };

/** The scheme of the view's own links (`wsctx-open:3`). */
export const LINK_SCHEME = 'wsctx-open';

/** The places a page links to, numbered; the view opens only these. */
export class LinkTable {
  private readonly targets: LinkTarget[] = [];

  /** Registers `target` and returns the link to write for it. */
  add(target: LinkTarget): string {
    this.targets.push(target);
    return `${LINK_SCHEME}:${this.targets.length}`;
  }

  /** The target of a link written by `add`, or undefined for anything else. */
  resolve(link: string): LinkTarget | undefined {
    const match = new RegExp(`^${LINK_SCHEME}:(\\d+)$`).exec(link);
    return match ? this.targets[Number(match[1]) - 1] : undefined;
  }

  get size(): number {
    return this.targets.length;
  }
}

// ---------------------------------------------------------------------------------------------
// A question's passages

export function resultsTitle(question: string): string {
  return `Results: ${question}`;
}

/** The answer to a question, passage by passage. `result` must have been asked `withText`. */
export function resultsMarkdown(result: SearchResult, links: LinkTable): string {
  const n = result.passages.length;
  const lines = [`# ${markdownText(result.question)}`, ''];
  const facts = [
    `${n} ${n === 1 ? 'passage' : 'passages'}`,
    `contract ${markdownText(result.contractVersion)}`,
    `indexed ${markdownText(result.indexedAt ?? 'never')}`,
    ...(result.degraded.length ? [`degraded: ${markdownText(result.degraded.join(', '))}`] : []),
  ];
  lines.push(facts.join(' · '), '');
  if (result.notice) lines.push(markdownText(result.notice), '');
  if (n === 0)
    lines.push('Nothing in the indexed workspace matches this question. Try other words, or an entity name.');
  result.passages.forEach((p, i) => lines.push(...passageBlock(i + 1, p, links)));
  return lines.join('\n');
}

function passageBlock(rank: number, p: SearchPassage, links: LinkTable): string[] {
  const place = `${p.path}:${p.startLine}-${p.endLine}`;
  const lines = [
    `## ${rank}. ${markdownText(p.label)}`,
    '',
    `**score ${p.score.toFixed(3)}** · ${markdownText(p.sourceKind)} · [${markdownText(place)}](${links.add({ uri: p.uri })})`,
    '',
  ];
  for (const marker of p.markers ?? []) lines.push(`> **${markdownText(marker)}**`, '');
  const text = p.text === undefined ? markdownText(p.preview) : passageMarkdown(p.text, { dropHeading: true });
  if (text.trim()) lines.push(text, '');
  lines.push(...whyTable(p.why, p.score), '');
  return lines;
}

/** The score term by term: signal, weight, raw, contribution and what it saw, then the sum. */
export function whyTable(why: readonly WhyTerm[], score: number): string[] {
  const lines = ['| signal | weight | raw | contribution | detail |', '| --- | ---: | ---: | ---: | --- |'];
  for (const w of why)
    lines.push(
      `| ${markdownText(w.signal)} | ${w.weight.toFixed(2)} | ${w.raw.toFixed(3)} | ${w.contribution.toFixed(3)} | ${markdownText(w.detail)} |`,
    );
  lines.push(`| **score** | | | **${score.toFixed(3)}** | |`);
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Why not this page?

/** The fields of `explain_result`'s output the view shows (read structurally: the client never imports the server). */
export interface ExplainView {
  question: string;
  task?: boolean;
  expected: string;
  target?: { kind: string; label: string };
  standing: string;
  summary: string;
  fix: string;
  libraryStatus?: string;
  best?: {
    title: string;
    path: string;
    headingPath: string[];
    startLine: number;
    score: number;
    tokens: number;
    why: WhyTerm[];
  };
  above: {
    rank: number | null;
    title: string;
    path: string;
    headingPath: string[];
    startLine: number;
    score: number;
    termsTheTargetLacks: string[];
    termsHeldMoreStrongly: string[];
    bonusesTheTargetLacks: string[];
  }[];
}

export function explanationTitle(expected: string): string {
  return `Why not ${expected}?`;
}

/**
 * The explanation: the fix first (what to do), then the cause, then where the page stands (the
 * tool's own first line of text, `standing`), its best section with its score term by term, and
 * the passages that ranked above it with what put them there.
 */
export function explanationMarkdown(out: ExplainView, standing: string, links: LinkTable): string {
  const asked = out.task ? `the task "${out.question}"` : `"${out.question}"`;
  const lines = [
    `# Why not ${markdownCode(out.target?.label ?? out.expected)}?`,
    '',
    `**Fix:** ${markdownText(out.fix)}`,
    '',
    markdownText(out.summary),
    '',
    `${markdownText(standing)}`,
    '',
  ];
  if (out.libraryStatus) lines.push(`Note: ${markdownText(out.libraryStatus)}`, '');
  const returned = out.standing === 'returned';
  if (out.best && !returned) {
    const b = out.best;
    const heading = b.headingPath.join(' › ') || b.title;
    lines.push(
      `## Its best section: ${markdownText(heading)}`,
      '',
      `**score ${b.score.toFixed(3)}** · ${b.tokens} tokens · [${markdownText(`${b.path}:${b.startLine}`)}](${links.add({ path: b.path, line: b.startLine })})`,
      '',
      ...whyTable(b.why, b.score),
      '',
    );
  }
  if (out.above.length && !returned) {
    lines.push(`## Above it for ${markdownText(asked)}`, '');
    for (const a of out.above) {
      const held = [
        a.termsTheTargetLacks.length ? `holds ${a.termsTheTargetLacks.join(', ')}` : '',
        a.termsHeldMoreStrongly.length ? `holds more strongly ${a.termsHeldMoreStrongly.join(', ')}` : '',
        a.bonusesTheTargetLacks.join(', '),
      ]
        .filter(Boolean)
        .join('; ');
      lines.push(
        `${a.rank ?? '-'}. ${markdownText(a.headingPath.join(' › ') || a.title)} · score ${a.score.toFixed(3)} · [${markdownText(`${a.path}:${a.startLine}`)}](${links.add({ path: a.path, line: a.startLine })})${held ? ` · ${markdownText(held)}` : ''}`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}
