/**
 * explain_result for a get_context task: the bundle is built as get_context builds it (the same
 * tool code, the same judge mode and model), and the expected page is looked for in it, in what
 * did not fit, in what focus dropped, and among the candidates. Seed 000's causes, in its words:
 * a page that is not published or expired, a whole page past three quarters of the budget or
 * past the budget, a section the judge (or the closeness heuristics) dropped as unused or about
 * something else, a section kept that the budget had no room for, and, when get_context's search
 * never reached it, what `workspace_context`'s formula says of the task's words and the page.
 */
import type { BuiltContext } from '../library/context/getContext';
import { explainRanking, type FolderRanking } from '../engine';
import { targetDocs, targetPredicate, type ExpectedTarget } from '../library/explain/explainTarget';
import type { Services } from '../services/services';
import { runContext, type GetContextArgs } from './getContext';
import type { ToolCallContext } from './toolDefinition';

export type TaskStanding = 'returned' | 'not-served' | 'did-not-fit' | 'dropped-by-focus' | 'cut-by-budget';

export interface TaskExplanation {
  /** A TaskStanding, or the ranking's standing for the task's words when get_context's search never reached the page. */
  standing: string;
  reason?: string;
  summary: string;
  fix: string;
  /** The ranking explanation of the task's words, when the page was not a candidate of get_context. */
  ranking?: ReturnType<typeof explainRanking>;
}

const DEFAULT_LIMIT = 10;

export async function explainTask(
  services: Services,
  args: GetContextArgs,
  target: ExpectedTarget,
  folders: readonly FolderRanking[],
  context: ToolCallContext,
): Promise<TaskExplanation> {
  if (target.hidden) {
    return {
      standing: 'not-served',
      reason: target.hidden,
      summary:
        target.hidden === 'draft'
          ? `${target.label} is a draft (status: draft): only published pages are searched or sent.`
          : `${target.label} is past its expires date: expired pages are never sent.`,
      fix:
        target.hidden === 'draft'
          ? 'Publish it: remove status: draft from its front matter.'
          : 'Update it and its expires date, or remove it.',
    };
  }
  let built: BuiltContext | undefined;
  await runContext(services, { ...args, format: 'json' }, context, (b) => (built = b));
  if (!built) throw new Error('Nothing is indexed yet; indexing has started. Ask again in a moment.');
  const bundle = built.bundle;
  const isTarget = targetPredicate(target);
  const inTarget = (docId: string) => target.docIds.has(docId);
  const budget = `max_tokens ${bundle.maxTokens}`;

  const sent = [...bundle.rules, ...bundle.reference].find(
    (p) => inTarget(p.doc.id) && (p.whole || p.sections.some((s) => isTarget(s.entry))),
  );
  if (sent) {
    return {
      standing: 'returned',
      reason: sent.reason,
      summary: `It is in the bundle (${sent.reason}${sent.whole ? ', the whole page' : ', excerpts'}).`,
      fix: 'Nothing to fix.',
    };
  }
  const skipped = bundle.skipped.find((s) => inTarget(s.doc.id));
  if (skipped) {
    const rules = bundle.rules.reduce((sum, p) => sum + p.chars, 0);
    const ruleShare = Math.round((rules / (bundle.maxTokens * 4)) * 100);
    const whole =
      skipped.reason === 'pinned'
        ? 'a pinned page'
        : skipped.reason === 'recipe'
          ? "an applied pack's Always page"
          : 'a page read whole';
    return {
      standing: 'did-not-fit',
      reason: skipped.why,
      summary:
        skipped.why === 'allowance'
          ? `It is ${whole}, and whole pages may use at most three quarters of the budget (${budget}); with the whole pages before it, it would pass that.`
          : `It is ${whole}, and it did not fit in what was left of the budget (${budget}); a page read whole is never sent in pieces.${bundle.rulesOverBudget ? ' The rules alone pass the budget.' : ''}`,
      fix: `${ruleShare >= 25 ? `The budget is full of rules (about ${ruleShare}% of it): trim them. ` : ''}Ask with a larger max_tokens, make the page shorter, or split it so its sections can come as excerpts (drop read_whole).`,
    };
  }
  const dropped = bundle.focusDropped.filter((d) => inTarget(d.entry.doc.id) && isTarget(d.entry));
  if (dropped.length) {
    const d = dropped.sort((a, b) => b.confidence - a.confidence)[0];
    const by =
      bundle.judge.called && bundle.judge.fallbackReason === undefined
        ? `the judge (${bundle.judge.provider})`
        : 'the closeness heuristics (no judge model answered)';
    const verdict = bundle.judge.verdicts.find((v) =>
      v.subject.includes(d.entry.section.headingPath.at(-1) ?? '\u0000'),
    );
    return {
      standing: 'dropped-by-focus',
      reason: d.dropped,
      summary:
        d.dropped === 'different'
          ? `Its section "${d.entry.section.headingPath.join(' > ')}" was a candidate, and ${by} found it is about a different product, stack or audience than the task names${verdict ? ` (p ${verdict.applied.probability.toFixed(2)})` : ''}.`
          : `Its section "${d.entry.section.headingPath.join(' > ')}" was a candidate, and ${by} found it is not something this task would use, or not close enough to the best match (confidence ${d.confidence.toFixed(2)}).`,
      fix:
        d.dropped === 'different'
          ? 'Name in the task what the page is about (the product, stack or audience), or, if the page applies whatever the task names, say so in its Good-for phrasings.'
          : "It's essential but not similar: check its Good-for phrasings name the work agents describe, link it from the pages it belongs with, or put it in a pack as Always, pin it, or make the important parts a rule.",
    };
  }
  if (bundle.candidateDocs.some(inTarget)) {
    return {
      standing: 'cut-by-budget',
      summary: `Its sections were kept, but the budget (${budget}) was full before them: sections are added in order until the budget is reached.`,
      fix: `${bundle.rulesOverBudget ? 'The rules alone pass the budget: trim them. ' : ''}Ask with a larger max_tokens, or a narrower task so fewer sections come first.`,
    };
  }
  const ranking = explainRanking(
    folders,
    { question: args.task ?? '', limit: DEFAULT_LIMIT, now: services.now().getTime() },
    isTarget,
    targetDocs(target),
  );
  return {
    standing: ranking.standing === 'returned' ? 'not-a-candidate' : ranking.standing,
    summary: `get_context's search never reached it (no search hit, link, folder, pack or Good-for phrasing brought it). By workspace_context's formula for the task's words: ${ranking.summary}`,
    fix:
      ranking.standing === 'returned'
        ? 'Nothing in the task points at it for get_context: check its Good-for phrasings name the work agents describe, and give its sections specific headings.'
        : ranking.fix,
    ranking,
  };
}
