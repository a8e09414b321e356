/**
 * A change's part of the `get_context` bundle, sized to what the budget leaves after the team's
 * instructions and the rules, and rendered as Markdown under "# The change":
 *
 * 1. a summary that always goes (as rules do): the changed files by owning entity, each entity
 *    with its owner, lifecycle and why it owns them; what depends on it; paths no entity owns;
 *    the team's expectations the change touches;
 * 2. then whole pages, each labelled with its reason: the rule and instruction files for the
 *    changed paths (`rule-applies`), and per owning entity its catalog entry (`owns`), runbooks,
 *    docs and epics, then the entities that depend on them (`depends-on-changed`).
 *
 * Pages are taken in order of need (rules for the paths, the owning entities, runbooks, docs,
 * epics, first-hop dependents, second-hop dependents) while they fit; one that does not is
 * named in a last block with its path, so the reader can open it. They are shown grouped by
 * entity whatever order they were taken in. The second hop of dependents comes only when a
 * quarter of the change's budget is still free after everything else.
 */
import type { Doc, EntityKey, IndexState } from '../../../engine';
import { BLOCK_SEPARATOR, pageBlock, type IdOf } from '../render';
import type { BundlePage, ChangeLabel, ChangePart, ChangeReason, SkippedPage } from '../types';
import type { ChangeAnalysis, ChangeDependent, OwnedEntity } from './changeAnalysis';
import type { ChangedFile } from './changeInput';
import type { OwnershipEvidence } from './changeOwners';
import type { ApplyingRule } from './ruleScope';

export const CHANGE_HEADING = '# The change';
/**
 * Changed files the summary lists, over all entities (each entity lists at least 3); the rest
 * are counted. Default 40.
 */
export const FILES_LISTED = 40;
/** Unowned paths listed in the summary. Default 30. */
export const UNOWNED_LISTED = 30;
/** Share of the change's budget that must still be free for the second hop of dependents. Default 0.25. */
export const SECOND_HOP_FREE_SHARE = 0.25;
/** Changed files an answer's data lists one by one (`changes.files`); the rest are counted. Default 40. */
export const CHANGE_FILES_LISTED = 40;

export interface Candidate {
  doc: Doc;
  label: ChangeLabel;
  /** Lower is taken first. */
  priority: number;
  /** Where it is shown: its group (an owned entity's index, or after them) and rank in it. */
  group: number;
  rank: number;
  hop?: 1 | 2;
}

export function fillChange(input: {
  analysis: ChangeAnalysis;
  state: IndexState;
  /** Characters the change's part may use (the summary goes whatever it costs). */
  budgetChars: number;
  idOf: IdOf;
}): ChangePart {
  const { analysis, state, idOf } = input;
  const sep = BLOCK_SEPARATOR.length;
  const candidates = changeCandidates(analysis, state);
  const blockOf = new Map<Candidate, string>();
  const pageOf = (c: Candidate): BundlePage => {
    const page: BundlePage = {
      doc: c.doc,
      reason: c.label.reason,
      whole: true,
      private: false,
      sections: [],
      chars: 0,
      change: c.label,
    };
    page.chars = pageBlock(page, idOf).length;
    return page;
  };
  const block = (c: Candidate) => {
    let text = blockOf.get(c);
    if (text === undefined) blockOf.set(c, (text = pageBlock(pageOf(c), idOf)));
    return text;
  };
  const summaryOf = (secondHop: boolean) => summaryBlock(analysis, secondHop);
  let secondHop = false;
  let summary = summaryOf(false);
  let used = CHANGE_HEADING.length + sep + summary.length;
  const sent = new Set<Candidate>();
  const fill = (list: readonly Candidate[]) => {
    for (const c of list) {
      const cost = sep + block(c).length;
      if (used + cost > input.budgetChars) continue;
      used += cost;
      sent.add(c);
    }
  };
  // The change's data (entities, dependents, items, files) rides beside the Markdown in the
  // answer's structured content: the pages leave room for it, so the whole response stays within
  // what the budget promises (a JSON answer's text holds it instead of the Markdown's summary).
  used += changeDataChars(analysis, candidates);
  const byPriority = [...candidates].sort((a, b) => a.priority - b.priority);
  fill(byPriority.filter((c) => c.hop !== 2));
  const hop2 = byPriority.filter((c) => c.hop === 2);
  const withSecond = summaryOf(true);
  const extra = withSecond.length - summary.length;
  if (
    analysis.dependents.some((d) => d.hop === 2) &&
    input.budgetChars - used - extra >= SECOND_HOP_FREE_SHARE * input.budgetChars
  ) {
    secondHop = true;
    summary = withSecond;
    used += extra;
    fill(hop2);
  }
  // What did not fit is named last; if naming it does not fit either, the least needed page gives way.
  const notSent = () => candidates.filter((c) => !sent.has(c) && (c.hop !== 2 || secondHop));
  let tail = notSentBlock(notSent(), idOf);
  while (tail !== '' && used + sep + tail.length > input.budgetChars && sent.size > 0) {
    const last = [...sent].sort((a, b) => b.priority - a.priority)[0];
    sent.delete(last);
    used -= sep + block(last).length;
    tail = notSentBlock(notSent(), idOf);
  }
  const shown = candidates.filter((c) => sent.has(c)).sort((a, b) => a.group - b.group || a.rank - b.rank);
  const blocks = [CHANGE_HEADING, summary, ...shown.map(block), ...(tail !== '' ? [tail] : [])];
  const skipped: SkippedPage[] = notSent().map((c) => ({ doc: c.doc, reason: c.label.reason, why: 'budget' }));
  return { analysis, blocks, pages: shown.map(pageOf), skipped, secondHop };
}

/**
 * About how many characters the answer's `changes` data takes (tools/contextChange.ts shapes it):
 * its files (at most {@link CHANGE_FILES_LISTED}), entities, dependents, items and expectations,
 * each as the JSON it becomes, rounded up by half for the keys and flags not counted here.
 */
export function changeDataChars(analysis: ChangeAnalysis, candidates: readonly Candidate[]): number {
  const json = (value: unknown) => JSON.stringify(value).length;
  let chars = 200;
  for (const f of analysis.files.slice(0, CHANGE_FILES_LISTED))
    chars += json([f.path, f.status, f.oldPath, f.owners]) + 40;
  for (const e of analysis.owned)
    chars += json([e.ref, e.title, e.type, e.lifecycle, e.owner, e.evidence, e.provides]) + 80;
  for (const d of analysis.dependents) chars += json([d.ref, d.owner, d.lifecycle, d.via]) + 60;
  for (const c of candidates) chars += json([c.doc.path, c.doc.title, c.label.reason, c.label.entity]) + 50;
  for (const e of analysis.expectations) chars += json(e) + 60;
  chars += json(analysis.unowned.slice(0, 500)) + json(analysis.problems);
  return Math.ceil(chars * 1.5);
}

/** Every page the change could send, with its label, priority and place. */
function changeCandidates(analysis: ChangeAnalysis, state: IndexState): Candidate[] {
  const out: Candidate[] = [];
  const groupOf = new Map<EntityKey, number>(analysis.owned.map((e, i) => [e.key, i + 1]));
  const afterOwned = analysis.owned.length + 1;
  analysis.rules.forEach((rule, rank) =>
    out.push({ doc: rule.doc, label: { reason: 'rule-applies', why: ruleWhy(rule) }, priority: 0, group: 0, rank }),
  );
  const entityDoc = entityDocs(state);
  for (const entity of analysis.owned) {
    const doc = entityDoc.get(entity.key);
    if (!doc) continue;
    out.push({
      doc,
      label: { reason: 'owns', entity: entity.ref, why: ownsWhy(entity) },
      priority: 1,
      group: groupOf.get(entity.key)!,
      rank: 0,
    });
  }
  const reasonPriority: Record<string, number> = { runbook: 2, doc: 3, epic: 4 };
  analysis.pages.forEach((page, rank) => {
    const owner = analysis.owned.find((e) => e.key === page.entity);
    const ref = owner?.ref ?? page.entity;
    out.push({
      doc: page.doc,
      label: { reason: page.reason, entity: ref, why: pageWhy(page.reason, page.doc, ref) },
      priority: reasonPriority[page.reason],
      group: groupOf.get(page.entity) ?? afterOwned,
      rank: rank + 1,
    });
  });
  analysis.dependents.forEach((dependent, rank) => {
    const doc = entityDoc.get(dependent.key);
    if (!doc) return;
    out.push({
      doc,
      label: { reason: 'depends-on-changed', entity: dependent.ref, why: dependentWhy(dependent) },
      priority: dependent.hop === 1 ? 5 : 6,
      group: afterOwned,
      rank,
      hop: dependent.hop,
    });
  });
  return out;
}

const entityDocIndexes = new WeakMap<IndexState, Map<EntityKey, Doc>>();

/** Each entity's own document (its catalog entry rendered: facts and relations). */
function entityDocs(state: IndexState): Map<EntityKey, Doc> {
  let map = entityDocIndexes.get(state);
  if (!map) {
    map = new Map();
    for (const doc of state.docs.values())
      if (doc.sourceKind === 'catalog_entity' && doc.entityRefs.length > 0) map.set(doc.entityRefs[0], doc);
    entityDocIndexes.set(state, map);
  }
  return map;
}

/** The summary: files by entity with owner, lifecycle and evidence; dependents; unowned paths; expectations. */
function summaryBlock(analysis: ChangeAnalysis, secondHop: boolean): string {
  const lines: string[] = [];
  const files = analysis.files.length;
  const ownedFiles = analysis.files.filter((f) => f.owners.length > 0).length;
  const entities = analysis.owned.length;
  lines.push(
    `${count(files, 'changed file')} (${analysis.from === 'diff' ? 'from the diff' : 'as named'}): ${ownedFiles} in ${count(entities, 'entity', 'entities')}, ${analysis.unowned.length} owned by none.`,
  );
  const perEntity = Math.max(3, Math.floor(FILES_LISTED / Math.max(1, entities)));
  for (const entity of analysis.owned) {
    lines.push('');
    const facts = [entity.type, entity.lifecycle, entity.owner ? `owned by ${entity.owner}` : 'no owner in the catalog']
      .filter(Boolean)
      .join(', ');
    lines.push(`**${entity.ref}**${entity.title ? ` (${entity.title})` : ''}: ${facts}`);
    lines.push(`- Owns the change by ${entity.evidence.map(evidenceWords).join('; ')}`);
    const listed = entity.files.slice(0, perEntity).map((f) => `${f.path}${fileFacts(f)}`);
    const more = entity.files.length - listed.length;
    lines.push(`- Changed: ${listed.join(', ')}${more > 0 ? `, and ${more} more` : ''}`);
    if (entity.provides.length > 0) lines.push(`- Provides: ${entity.provides.join(', ')}`);
    const on = analysis.dependents.filter((d) => d.hop === 1 && d.via.some((v) => v.on === entity.ref));
    lines.push(
      on.length > 0
        ? `- Depended on by: ${on.map((d) => dependentLine(d, entity.ref)).join('; ')}`
        : '- Depended on by: nothing in the catalog (no entity depends on it or consumes an API it provides)',
    );
  }
  const second = analysis.dependents.filter((d) => d.hop === 2);
  if (secondHop && second.length > 0) {
    lines.push('');
    lines.push(`**Two hops away**: ${second.map((d) => dependentLine(d)).join('; ')}`);
  }
  if (analysis.unowned.length > 0) {
    lines.push('');
    const listed = analysis.unowned.slice(0, UNOWNED_LISTED);
    const more = analysis.unowned.length - listed.length;
    lines.push(`**Owned by no entity**: ${listed.join(', ')}${more > 0 ? `, and ${more} more` : ''}`);
  }
  if (analysis.expectations.length > 0) {
    lines.push('');
    lines.push('**Expectations this change touches** (run `wsctx check` after it):');
    for (const e of analysis.expectations)
      lines.push(
        `- ${e.file}:${e.line} ${e.task ? 'task' : 'question'} "${e.question}": ${e.pages.map((p) => `${p.kind === 'expect' ? 'expects' : 'excludes'} ${p.page}`).join(', ')}`,
      );
  }
  if (analysis.problems.length > 0) {
    lines.push('');
    lines.push(`**Parts of the diff not read**: ${analysis.problems.join('; ')}`);
  }
  return lines.join('\n');
}

function notSentBlock(candidates: readonly Candidate[], idOf: IdOf): string {
  if (candidates.length === 0) return '';
  const lines = ['## Not sent for the budget', 'Each is for this change too; read it by its path (or page_id):'];
  for (const c of candidates)
    lines.push(
      `- ${c.doc.title} (${c.label.reason}${c.label.entity ? ` of ${c.label.entity}` : ''}): ${c.doc.sourceKind === 'library' ? `page_id ${idOf(c.doc.id)}, ` : ''}${c.doc.path}`,
    );
  return lines.join('\n');
}

function evidenceWords(e: OwnershipEvidence): string {
  switch (e.kind) {
    case 'catalog-entry':
      return `its catalog entry (${e.detail})`;
    case 'api-definition':
      return `its API definition (${e.detail})`;
    case 'file-name':
      return `a file named for it (${e.detail})`;
    case 'techdocs-dir':
      return `its TechDocs folder (${e.detail})`;
    case 'source-location':
      return `its source location (${e.detail})`;
    case 'package':
      return `its package folder (${e.detail}/)`;
    case 'catalog-place':
      return `the catalog file over the changed files (${e.detail})`;
  }
}

function ownsWhy(entity: OwnedEntity): string {
  const facts = [entity.lifecycle, entity.owner ? `owned by ${entity.owner}` : undefined].filter(Boolean).join(', ');
  return `${entity.ref} owns ${count(entity.files.length, 'changed file')}${facts ? ` (${facts})` : ''}`;
}

function pageWhy(reason: ChangeReason, doc: Doc, entity: string): string {
  if (reason === 'runbook') return `runbook of ${entity}`;
  if (reason === 'epic') return `epic naming ${entity}`;
  return doc.sourceKind === 'repo_overview' ? `overview of ${entity}'s package or repository` : `docs of ${entity}`;
}

function ruleWhy(rule: ApplyingRule): string {
  const paths = `${rule.paths.slice(0, 3).join(', ')}${rule.paths.length > 3 ? ` and ${rule.paths.length - 3} more` : ''}`;
  if (rule.why === 'globs') return `its globs (${(rule.globs ?? []).join(', ')}) match ${paths}`;
  if (rule.why === 'folder') return `in the folder of ${paths} or above it`;
  return `instructions for every file of its repository (${paths})`;
}

function dependentWhy(d: ChangeDependent): string {
  return `${dependentLine(d)}${d.hop === 2 ? ' (two hops away)' : ''}`;
}

function dependentLine(d: ChangeDependent, only?: string): string {
  const how = d.via
    .filter((v) => only === undefined || v.on === only)
    .map((v) =>
      v.relation === 'dependsOn'
        ? `depends on ${v.on}`
        : v.relation === 'providesApi'
          ? `provides ${v.api}`
          : `consumes ${v.api}${v.api === v.on ? '' : ` of ${v.on}`}`,
    )
    .join(', ');
  const facts = [d.owner ? `owned by ${d.owner}` : undefined, d.lifecycle].filter(Boolean).join(', ');
  return `${d.ref}${facts ? ` (${facts})` : ''} ${how}`;
}

function fileFacts(f: ChangedFile): string {
  if (f.status === 'changed') return '';
  const lines = f.added !== undefined && (f.added > 0 || (f.removed ?? 0) > 0) ? ` +${f.added} −${f.removed ?? 0}` : '';
  return ` (${f.status}${lines})`;
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
