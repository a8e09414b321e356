/**
 * The shapes the `get_context` pipeline passes between its steps and hands to the renderers.
 */
import type { Doc } from '../../engine';
import type { LibrarySection } from '../view/libraryView';
import type { PassageFlag } from '../view/soundness';
import type { JudgeMode, Verdict } from '../models/judge';
import type { TaskPlan } from '../models/heuristicPlan';
import type { SearchHit } from './sectionSearch';
import type { ChangeAnalysis, ChangeInput } from './change/changeAnalysis';

/**
 * Why a page of a change's bundle is in it (change/changeBundle.ts): the entity a changed path
 * belongs to (`owns`), an entity that depends on it (`depends-on-changed`), its runbooks, docs and
 * epics, the rule and instruction files for the changed paths (`rule-applies`).
 */
export type ChangeReason = 'owns' | 'depends-on-changed' | 'runbook' | 'doc' | 'rule-applies' | 'epic';

/** Why a page is in the bundle (docs/ARCHITECTURE.md, get_context's contract, step 8's JSON). */
export type PageReason = 'rule' | 'pinned' | 'recipe' | 'use' | 'link' | 'folder' | 'search' | 'entity' | ChangeReason;

/** What a change page is and why it came, in its header. */
export interface ChangeLabel {
  reason: ChangeReason;
  /** The entity it is for: the owning entity (runbook, doc, epic) or the page's own (owns, depends-on-changed). */
  entity?: string;
  /** Why, in a few words: the globs that matched, how it depends, which files it owns. */
  why: string;
}

/** What an entity excerpt's page is: its source kind and the entity it documents (library/context/entityDocs.ts). */
export interface EntityLabel {
  sourceKind: 'catalog_doc' | 'repo_overview' | 'epic_doc';
  /** The entity's ref as Backstage writes it (`component:default/billing-worker`). */
  ref: string;
  /** The task names the entity. */
  named: boolean;
}

/** How a candidate section was reached. */
export type ReachedBy = 'search' | 'link' | 'inferred-link' | 'folder' | 'use' | 'recipe';

export interface ContextRequest {
  /** What the agent is about to do; may be empty when `change` is given. */
  task: string;
  /** The change the bundle is for (changed paths or a diff), with the expectations files the host read. */
  change?: ChangeInput;
  /** 1,000..30,000; default 12,000 (constants.ts). */
  maxTokens?: number;
  /** A pack's name: it applies and no other pack is matched. */
  pack?: string;
  tags?: readonly string[];
  folder?: string;
  /** The connection asking; decides whether the user's private notes may be used. */
  sessionId?: string;
  signal?: AbortSignal;
}

export interface Candidate {
  entry: LibrarySection;
  /** The search's hit, when search found the section. */
  hit?: SearchHit;
  /** Own search similarity, 0 when search did not find it. */
  similarity: number;
  /** What the closeness window compares: own similarity, or what it carries from the page it was reached from. */
  weight: number;
  fused: number;
  reachedBy: ReachedBy;
  /** The page it was reached from (links, folders). */
  via?: Doc;
  /**
   * Kept past the closeness window: a Good-for page's best sections (`use`), a pack's
   * When-relevant pages (`recipe`), pages of a folder whose phrasings match the task (`lift`).
   */
  keepPastWindow?: 'use' | 'recipe' | 'lift';
  /** It holds a name the plan found. */
  named: boolean;
  /** Its page is about one of those names (the name is in its title or the page is that name's). */
  aboutName?: boolean;
}

export interface KeptRows {
  /** 0-based indexes of the table's data rows that are kept. */
  kept: number[];
  /** Rows dropped as being about a different name than the task's. */
  dropped: number;
}

export interface BundleSection {
  entry: LibrarySection;
  reachedBy: ReachedBy;
  similarity?: number;
  /** The applied judge (or heuristic) confidence that it belongs, 0..1. */
  confidence?: number;
  via?: Doc;
  rows?: KeptRows;
  /** Unsettled conflicts of this section with other pages (library/soundness.ts), shown under it. */
  conflicts?: PassageFlag[];
}

export interface BundlePage {
  doc: Doc;
  reason: PageReason;
  whole: boolean;
  /** The user's own private note. */
  private: boolean;
  /** Excerpts: the sections sent, in document order. Whole pages: the searched sections that led to them. */
  sections: BundleSection[];
  via?: Doc;
  /** Whole pages: unsettled conflicts of its sections with other pages, shown after it. */
  conflicts?: PassageFlag[];
  /** Set for entity docs, overviews and epics (reason `entity`): not a library page. */
  entity?: EntityLabel;
  /** Set for the pages of a change (change/changeBundle.ts). */
  change?: ChangeLabel;
  /** Characters of the page's rendered block. */
  chars: number;
}

export interface PackDecision {
  name: string;
  path: string;
  /** Closest Good-for phrasing and its similarity. */
  phrasing: string;
  score: number;
  forced: boolean;
  applied: boolean;
  /** How it was decided: forced, the judge, a remembered verdict, or the heuristic threshold. */
  decidedBy: 'forced' | 'judge' | 'cache' | 'heuristic';
}

export interface SkippedPage {
  doc: Doc;
  reason: PageReason;
  /** `allowance`: past three quarters of the budget; `budget`: no room left. */
  why: 'allowance' | 'budget';
}

export interface NearestPage {
  doc: Doc;
  score: number;
}

/** A change's part of the bundle (change/changeBundle.ts): after the rules, before the task's reference. */
export interface ChangePart {
  analysis: ChangeAnalysis;
  /** Its Markdown blocks, in order (the budget counted them). */
  blocks: string[];
  /** The pages sent, in the order rendered. */
  pages: BundlePage[];
  /** Pages chosen for the change that did not fit the budget. */
  skipped: SkippedPage[];
  /** Whether the second hop of dependents was sent (there was budget for it). */
  secondHop: boolean;
}

export interface ContextBundle {
  task: string;
  maxTokens: number;
  /** Estimated tokens of the Markdown rendering (characters / 4, rounded up). */
  tokens: number;
  /** True when the rules alone pass the budget (they are sent anyway). */
  rulesOverBudget: boolean;
  organization: string;
  instructions: Doc[];
  plan: TaskPlan;
  packs: PackDecision[];
  tagsFound: string[];
  rules: BundlePage[];
  /** Whole pages (pinned, recipe, use, read-whole pages search reached) then excerpt pages. */
  reference: BundlePage[];
  skipped: SkippedPage[];
  /**
   * Sections that were candidates and that focus (step 7: the judge, or the closeness heuristics)
   * dropped, with why: `unused` (not something the task would use, or not close enough to the
   * best match) or `different` (about another product, stack or audience than the task names).
   * What "why not this page?" reads for a task (explain_result).
   */
  focusDropped: { entry: LibrarySection; dropped: 'unused' | 'different'; confidence: number }[];
  /** Ids of the documents that had a candidate section (search, links, folders, Good-for pages). */
  candidateDocs: string[];
  /** Set when nothing came close enough to send. */
  nothingFound?: { nearest: NearestPage[] };
  judge: {
    mode: JudgeMode;
    provider: string;
    called: boolean;
    fallbackReason?: string;
    verdicts: Verdict[];
  };
  /** Which provider (or `heuristic`) did each model-backed step. */
  steps: { plan: string; judge: string; meaning: boolean };
  scope: { folder?: string; tags?: string[] };
  /** Set for a change's bundle: what the change touches, its part of the Markdown and the pages it sent. */
  change?: ChangePart;
}
