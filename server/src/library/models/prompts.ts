/**
 * Every prompt the model-backed steps send, and the parser of each answer, in one place so they
 * can be read, tested and tuned together (docs/ARCHITECTURE.md, "Model steps are optional"):
 *
 * - the planner (Herald step 1): the task's names and their kinds, deliverable, facet searches,
 *   hard constraints, as JSON;
 * - the judge: yes/no questions with a probability, every question of one request in one call;
 *   the question wordings for packs, section use, a different competitor/product/market/audience,
 *   table rows and inferred links;
 * - page cards: Good-for phrasings (and whether a page is one to read whole);
 * - section questions: the questions a section answers;
 * - the conflict check: facts, numbers and rules two passages state differently.
 *
 * Parsers never throw: an answer that is not what was asked for parses to null (the step then
 * falls back to its heuristic), and anything a model could make up is checked against the input
 * (a plan's names must occur in the task, a conflict's quotes in the passages).
 */
import type { ChatMessage } from './modelProvider';

/** Characters of material shown per judge item; longer material is cut at a word. Default 1,200. */
export const JUDGE_MATERIAL_CHARS = 1_200;
/** Characters of a page or section shown to the card, question and conflict prompts. Default 3,000. */
export const PROMPT_TEXT_CHARS = 3_000;
/** Most facet searches a plan keeps. Default 3. */
export const MAX_PLAN_SEARCHES = 3;
/** Most phrasings kept from a card answer. Default 5. */
export const MAX_PHRASINGS = 5;
/** Most questions kept per section. Default 4. */
export const MAX_SECTION_QUESTIONS = 4;

// ---------------------------------------------------------------------------------------------
// Planner

export interface ModelPlan {
  names: { text: string; kind: string }[];
  deliverable?: string;
  searches: string[];
  constraints: string[];
}

export function planPrompt(task: string, knownNames: readonly { text: string; kind: string }[]): ChatMessage[] {
  const known =
    knownNames.length > 0
      ? `\n\nNames this workspace knows (name: kind):\n${knownNames.map((n) => `- ${n.text}: ${n.kind}`).join('\n')}`
      : '';
  return [
    {
      role: 'system',
      content: [
        'You take apart a task an agent is about to do, so a library can be searched for it.',
        'Answer with one JSON object and nothing else:',
        '{"names": [{"text": "<a name exactly as the task writes it>", "kind": "<competitor|product|persona|market|component|api|system|group|other>"}],',
        ' "deliverable": "<what will be produced, a few words>",',
        ' "searches": ["<two or three short searches, each covering one facet of the task>"],',
        ' "constraints": ["<hard constraints the task states, in its words>"]}',
        'Only list names the task itself contains. Leave a list empty when there is nothing for it.',
      ].join('\n'),
    },
    { role: 'user', content: `Task: ${task}${known}` },
  ];
}

/** The plan in a model's answer, or null. Names not in the task are dropped; searches capped. */
export function parsePlan(text: string, task: string): ModelPlan | null {
  const value = jsonObject(text);
  if (!value) return null;
  const lowerTask = task.toLowerCase();
  const names: ModelPlan['names'] = [];
  if (Array.isArray(value.names)) {
    for (const item of value.names) {
      if (!isRecord(item) || typeof item.text !== 'string' || typeof item.kind !== 'string') continue;
      const name = item.text.trim();
      if (name === '' || !lowerTask.includes(name.toLowerCase())) continue;
      if (!names.some((n) => n.text.toLowerCase() === name.toLowerCase()))
        names.push({ text: name, kind: item.kind.trim().toLowerCase() || 'other' });
    }
  }
  const searches = stringList(value.searches)
    .filter((s) => s.split(/\s+/).length <= 16)
    .slice(0, MAX_PLAN_SEARCHES);
  const constraints = stringList(value.constraints).slice(0, 6);
  const plan: ModelPlan = { names, searches, constraints };
  if (typeof value.deliverable === 'string' && value.deliverable.trim() !== '')
    plan.deliverable = value.deliverable.trim();
  return plan;
}

// ---------------------------------------------------------------------------------------------
// Judge

/** One yes/no question about one piece of material. */
export interface JudgeItem {
  /** Short and unique within the request: `q1`, `q2`... */
  id: string;
  question: string;
  /** What the question is about, shown under it (cut to {@link JUDGE_MATERIAL_CHARS}). */
  material: string;
}

/** The judge's questions, worded once. */
export const JUDGE_QUESTIONS = {
  pack: (name: string) => `Is the task the kind of work the pack "${name}" is for?`,
  use: 'Would someone doing this task use this material?',
  different:
    'Is this material specifically about a different competitor, product, market or audience than the task names?',
  row: 'Is this table row about a different plan, region, product, competitor, market or audience than the task names?',
  link: 'Would someone using the first page also need the second page to do their work? (Not whether they are similar.)',
} as const;

export function judgePrompt(task: string, items: readonly JudgeItem[]): ChatMessage[] {
  const blocks = items.map((item) => `[${item.id}] ${item.question}\n${cut(item.material, JUDGE_MATERIAL_CHARS)}`);
  const example = items
    .slice(0, 2)
    .map((item, i) => `"${item.id}": ${i === 0 ? '0.93' : '0.08'}`)
    .join(', ');
  return [
    {
      role: 'system',
      content: [
        'You answer yes/no questions about material an agent might be given for a task.',
        'For every numbered item, give the probability from 0 to 1 that the answer to its question is yes.',
        `Answer with one JSON object mapping every item id to its probability, e.g. {${example}}, and nothing else.`,
      ].join('\n'),
    },
    { role: 'user', content: `Task: ${task}\n\n${blocks.join('\n\n')}` },
  ];
}

/**
 * The judge's answers for `ids`, or null when the text holds none of them. Accepts a probability
 * (0..1, or 0..100 as a percentage), `"yes"`/`"no"`, or `{answer, probability}` per id.
 */
export function parseJudgeAnswers(
  text: string,
  ids: readonly string[],
): { id: string; yes: boolean; probability: number }[] | null {
  const value = jsonObject(text);
  if (!value) return null;
  const source = isRecord(value.answers) ? value.answers : value;
  const answers: { id: string; yes: boolean; probability: number }[] = [];
  for (const id of ids) {
    const p = probabilityOf(source[id]);
    if (p !== null) answers.push({ id, yes: p >= 0.5, probability: p });
  }
  return answers.length > 0 ? answers : null;
}

function probabilityOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) {
    if (value >= 0 && value <= 1) return value;
    if (value > 1 && value <= 100) return value / 100;
    return null;
  }
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (word === 'yes' || word === 'true') return 1;
    if (word === 'no' || word === 'false') return 0;
    const n = Number(word);
    return Number.isFinite(n) ? probabilityOf(n) : null;
  }
  if (isRecord(value)) {
    const p = probabilityOf(value.probability ?? value.p);
    const answer = typeof value.answer === 'string' ? value.answer.trim().toLowerCase() : undefined;
    if (p === null) return answer === 'yes' ? 1 : answer === 'no' ? 0 : null;
    // A probability next to an explicit "no" is the confidence in that no.
    if (answer === 'no' && p > 0.5) return 1 - p;
    return p;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Page and folder cards

export interface CardInput {
  /** `page`, `folder` or `pack`. */
  what: 'page' | 'folder' | 'pack';
  title: string;
  type?: string;
  summary?: string;
  /** Headings (a page) or page titles (a folder, a pack). */
  outline: readonly string[];
  text?: string;
}

export interface ModelCard {
  goodFor: string[];
  /** Pages only: read whole (a rule, voice, style, template or process). */
  readWhole?: boolean;
}

export function cardPrompt(input: CardInput): ChatMessage[] {
  const readWhole =
    input.what === 'page'
      ? ',\n "read_whole": <true when the page only works read whole: a rule, a voice or style guide, a template, a process>'
      : '';
  const lines = [`${capitalize(input.what)}: ${input.title}`];
  if (input.type) lines.push(`Type: ${input.type}`);
  if (input.summary) lines.push(`Summary: ${input.summary}`);
  if (input.outline.length > 0)
    lines.push(`${input.what === 'page' ? 'Headings' : 'Pages'}: ${input.outline.join('; ')}`);
  if (input.text) lines.push('', cut(input.text, PROMPT_TEXT_CHARS));
  return [
    {
      role: 'system',
      content: [
        `You write the "Good for" phrasings of a ${input.what} in a team's library: 3 to 5 short phrasings of the work someone would be doing when they need it,`,
        'each 3 to 10 words, starting with a verb ending in -ing, naming the kind of work rather than the content (e.g. "writing a cold email to a finance buyer").',
        `Answer with one JSON object and nothing else: {"good_for": ["..."]${readWhole}}`,
      ].join('\n'),
    },
    { role: 'user', content: lines.join('\n') },
  ];
}

export function parseCard(text: string): ModelCard | null {
  const value = jsonObject(text);
  if (!value) return null;
  const goodFor = dedupe(stringList(value.good_for ?? value.goodFor).filter((p) => p.split(/\s+/).length <= 14)).slice(
    0,
    MAX_PHRASINGS,
  );
  if (goodFor.length === 0) return null;
  const card: ModelCard = { goodFor };
  const readWhole = value.read_whole ?? value.readWhole;
  if (typeof readWhole === 'boolean') card.readWhole = readWhole;
  return card;
}

// ---------------------------------------------------------------------------------------------
// Section questions

export function sectionQuestionsPrompt(pageTitle: string, headingPath: readonly string[], text: string): ChatMessage[] {
  return [
    {
      role: 'system',
      content: [
        'You write the questions a section of a team library answers: 2 to 4 short questions a colleague would ask that this section answers,',
        'in plain words (e.g. "what is the refund window after a downgrade?").',
        'Answer with one JSON object and nothing else: {"questions": ["..."]}',
      ].join('\n'),
    },
    {
      role: 'user',
      content: `Page: ${pageTitle}\nSection: ${headingPath.join(' > ')}\n\n${cut(text, PROMPT_TEXT_CHARS)}`,
    },
  ];
}

export function parseQuestions(text: string): string[] | null {
  const value = jsonObject(text);
  if (!value) return null;
  const questions = dedupe(stringList(value.questions).filter((q) => q.split(/\s+/).length <= 20)).slice(
    0,
    MAX_SECTION_QUESTIONS,
  );
  return questions.length > 0 ? questions : null;
}

// ---------------------------------------------------------------------------------------------
// Conflict check

export interface Passage {
  page: string;
  heading: string;
  text: string;
}

export interface ModelConflict {
  /** Verbatim wording from the first passage. */
  a: string;
  /** Verbatim wording from the second passage. */
  b: string;
  /** What differs, in a few words. */
  what: string;
}

export function conflictPrompt(a: Passage, b: Passage): ChatMessage[] {
  return [
    {
      role: 'system',
      content: [
        'Two passages from different pages of a team library are shown. Find every fact, number, date or rule they state differently,',
        'so that an agent given both could not know which to follow. Quote the exact wording from each passage.',
        'Answer with one JSON object and nothing else: {"conflicts": [{"a": "<exact words from A>", "b": "<exact words from B>", "what": "<what differs>"}]}',
        'Use an empty list when they agree or talk about different things.',
      ].join('\n'),
    },
    {
      role: 'user',
      content: `A (${a.page} > ${a.heading}):\n${cut(a.text, PROMPT_TEXT_CHARS)}\n\nB (${b.page} > ${b.heading}):\n${cut(b.text, PROMPT_TEXT_CHARS)}`,
    },
  ];
}

/** Conflicts whose quotes really occur in the passages (whitespace-insensitive); null when unreadable. */
export function parseConflicts(text: string, a: string, b: string): ModelConflict[] | null {
  const value = jsonObject(text);
  if (!value || !Array.isArray(value.conflicts)) return null;
  const hayA = squash(a);
  const hayB = squash(b);
  const out: ModelConflict[] = [];
  for (const item of value.conflicts) {
    if (!isRecord(item) || typeof item.a !== 'string' || typeof item.b !== 'string') continue;
    const quoteA = item.a.trim();
    const quoteB = item.b.trim();
    if (quoteA === '' || quoteB === '' || !hayA.includes(squash(quoteA)) || !hayB.includes(squash(quoteB))) continue;
    out.push({ a: quoteA, b: quoteB, what: typeof item.what === 'string' ? item.what.trim() : '' });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** The first JSON object in `text` (a model may wrap it in prose or a code fence), or null. */
export function jsonObject(text: string): Record<string, unknown> | null {
  const start = text.indexOf('{');
  if (start < 0) return null;
  // Try from the first brace to each closing brace, last first: the whole object usually ends last.
  for (let end = text.lastIndexOf('}'); end > start; end = text.lastIndexOf('}', end - 1)) {
    try {
      const value = JSON.parse(text.slice(start, end + 1)) as unknown;
      return isRecord(value) ? value : null;
    } catch {
      // keep looking
    }
  }
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((v): v is string => typeof v === 'string')
    .map((v) => v.replace(/\s+/g, ' ').trim())
    .filter((v) => v !== '');
}

function dedupe(values: readonly string[]): string[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = v.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `text` cut to at most `max` characters at a word, with an ellipsis when cut. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(' ');
  return `${space > max / 2 ? head.slice(0, space) : head}…`;
}

function squash(text: string): string {
  return text.replace(/[*_`]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
