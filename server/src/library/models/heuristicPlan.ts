/**
 * The planner's deterministic fallback (Herald step 1 without a model): the names the task
 * mentions from the catalog and library dictionaries, the deliverable from a list of things
 * people produce, facet searches from the task's own clauses, and constraints from the clauses
 * that state one. Like a model's plan, it is only ever searched beside the task, never instead.
 */
import { termSet } from '../../engine';
import type { NameDictionary } from './nameDictionary';
import { MAX_PLAN_SEARCHES } from './prompts';

export interface PlanName {
  /** As the dictionary writes it (the task's own words for a model-found name). */
  text: string;
  kind: string;
  source: 'catalog' | 'library' | 'model';
  /** Catalog entity ref, when the name is an entity. */
  ref?: string;
  /** Library pages about the name. */
  docIds: string[];
  /** Normalised phrase, for matching in sections. */
  key: string;
}

export interface TaskPlan {
  task: string;
  names: PlanName[];
  deliverable?: string;
  /** Facet searches run beside the task. */
  searches: string[];
  constraints: string[];
  /** `heuristic`, or the provider that made it. */
  madeBy: string;
  /** Why the model's plan was not used, when a model was tried and failed. */
  fallbackReason?: string;
}

/** What people produce; the first one the task names is its deliverable. */
const DELIVERABLES = [
  'email',
  'emails',
  'message',
  'messages',
  'reply',
  'page',
  'post',
  'postmortem',
  'post-mortem',
  'migration',
  'review',
  'proposal',
  'report',
  'summary',
  'spec',
  'epic',
  'test',
  'tests',
  'function',
  'endpoint',
  'query',
  'script',
  'doc',
  'document',
  'comparison',
  'battlecard',
  'notice',
  'template',
  'runbook',
  'alert',
  'dashboard',
  'flag',
  'answer',
  'deck',
  'brief',
  'plan',
  'adr',
  'record',
  'pr',
  'pull request',
  'release',
  'announcement',
];

/** Words where one facet of a task ends and the next begins. */
const FACET_BOUNDARY =
  /[,;:()]|\s(?:to|for|about|with|from|at|against|evaluating|switching|who|that|which|when|where|while|because|and|but|in|on|into|using|via|after|before)\s/i;

/** Joining words and articles a facet does not start with ("from Avalara" is the facet "Avalara"). */
const LEADING_JOINERS = /^\s*(?:(?:a|an|the|to|for|about|with|from|at|against|of|in|on|into|using|via|and|but)\s+)+/i;

/** A clause states a hard constraint when it says one of these. */
const CONSTRAINT =
  /\b(?:must|never|only|always|at most|no more than|no longer than|under \d+|within \d+|without|don't|do not|keep it|less than|fewer than|max(?:imum)?|exactly)\b/i;

export function heuristicPlan(task: string, dictionary: NameDictionary): TaskPlan {
  const names: PlanName[] = dictionary.find(task).map(({ entry }) => ({
    text: entry.text,
    kind: entry.kind,
    source: entry.source,
    ...(entry.ref ? { ref: entry.ref } : {}),
    docIds: [...entry.docIds],
    key: entry.key,
  }));
  const plan: TaskPlan = {
    task,
    names,
    searches: facetSearches(task),
    constraints: constraintsOf(task),
    madeBy: 'heuristic',
  };
  const deliverable = deliverableOf(task);
  if (deliverable) plan.deliverable = deliverable;
  return plan;
}

/** Up to three clauses of the task, each with a content word and none a constraint, when the task has more than one. */
export function facetSearches(task: string): string[] {
  const chunks = task
    .split(FACET_BOUNDARY)
    .map((c) => c.replace(LEADING_JOINERS, '').trim())
    .filter((c) => c !== '' && termSet(c).size > 0);
  if (chunks.length < 2) return [];
  // A constraint ("under 120 words") says how, not what: it is no search.
  const topical = chunks.filter((c) => !CONSTRAINT.test(c));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const chunk of topical) {
    const key = [...termSet(chunk)].sort().join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(chunk);
  }
  // The facets with most content first, kept in task order.
  const kept = new Set([...out].sort((a, b) => termSet(b).size - termSet(a).size).slice(0, MAX_PLAN_SEARCHES));
  return out.filter((c) => kept.has(c));
}

export function deliverableOf(task: string): string | undefined {
  const words = task
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]+/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    const two = i + 1 < words.length ? `${words[i]} ${words[i + 1]}` : '';
    const hit = DELIVERABLES.includes(two) ? two : DELIVERABLES.includes(words[i]) ? words[i] : undefined;
    if (!hit) continue;
    const before = words[i - 1];
    const adjective =
      before &&
      termSet(before).size > 0 &&
      !/^(write|writing|draft|drafting|add|adding|create|creating|make|making|send|sending|review|reviewing)$/.test(
        before,
      );
    return adjective ? `${before} ${hit}` : hit;
  }
  return undefined;
}

export function constraintsOf(task: string): string[] {
  return task
    .split(/[.;\n]|,\s+(?=\w)/)
    .map((c) => c.trim())
    .filter((c) => c !== '' && CONSTRAINT.test(c));
}
