/**
 * Search-as-you-type over short fields (entity names and refs, titles, headings) with MiniSearch:
 * prefix and fuzzy matching, where its cost is worth it (docs/ARCHITECTURE.md, "Text analysis and candidates"). It is NOT used to
 * rank passages; the postings index narrows candidates for the tools.
 *
 * Text is split with the project tokenizer, and each token is indexed lower-cased as a whole AND
 * as its identifier parts, unstemmed (a stem would break prefixes: "billi" must reach
 * "billing"). So `component:default/billing-worker` is found by `billing-wor`, `worker`,
 * `default/bill` or `compnent`. A query's tokens must all match (AND); an identifier token
 * matches through its whole form OR through all of its parts (`billing-wor` also finds an entry
 * titled "Billing worker").
 */
import MiniSearch, { type Query } from 'minisearch';
import { identifierParts } from '../text/identifiers';
import { tokenize } from '../text/tokenize';

/** Options of a {@link PrefixIndex}. */
export interface PrefixIndexOptions {
  /** Names of the fields each entry has (e.g. `['name', 'title', 'ref']`). At least one. */
  fields: string[];
  /** Score multiplier per field; default 1 for each. A name field typically gets 2-3. */
  boost?: Record<string, number>;
  /**
   * Maximum edit distance allowed for a query term of a given length. Default
   * {@link defaultFuzzy}: none below 4 characters, 1 edit for 4-7, 2 edits from 8.
   */
  fuzzy?: (term: string) => number;
  /** Prefix matching of query terms. Default true. */
  prefix?: boolean;
}

/** One suggestion: an entry id and the indexed terms that matched. */
export interface PrefixSuggestion {
  id: string;
  /** MiniSearch's relevance score (higher is better; exact > prefix > fuzzy matches). */
  score: number;
  /** Indexed terms that matched, lower-cased. */
  terms: string[];
}

/** Default fuzziness: 0 edits under 4 characters, 1 edit for 4-7, 2 edits from 8. */
export function defaultFuzzy(term: string): number {
  return term.length < 4 ? 0 : term.length < 8 ? 1 : 2;
}

/** Whole lower-cased tokens plus their identifier parts, unstemmed and without duplicates. */
export function prefixTerms(text: string): string[] {
  const terms: string[] = [];
  for (const token of tokenize(text)) {
    const whole = token.text.toLowerCase();
    if (!terms.includes(whole)) terms.push(whole);
    if (token.kind !== 'identifier') continue;
    for (const part of identifierParts(token.text)) if (!terms.includes(part)) terms.push(part);
  }
  return terms;
}

type Entry = Record<string, string>;
/** MiniSearch's id field; a name no caller field can take. */
const ID = '\u0000id';
/** Tokenizer for a query node that must stay one term. */
const asIs = (term: string): string[] => [term];

export class PrefixIndex {
  private readonly search: MiniSearch<Entry>;
  private readonly fields: string[];
  private readonly fuzzy: (term: string) => number;
  private readonly prefix: boolean;

  constructor(options: PrefixIndexOptions) {
    if (options.fields.length === 0) throw new Error('PrefixIndex: at least one field is required');
    this.fields = [...options.fields];
    this.fuzzy = options.fuzzy ?? defaultFuzzy;
    this.prefix = options.prefix ?? true;
    this.search = new MiniSearch<Entry>({
      idField: ID,
      fields: this.fields,
      tokenize: prefixTerms,
      // Terms arrive lower-cased and split already.
      processTerm: (term) => term,
      searchOptions: { boost: options.boost },
    });
  }

  /** Entries held. */
  get size(): number {
    return this.search.documentCount;
  }

  has(id: string): boolean {
    return this.search.has(id);
  }

  /** Adds an entry; an id already present is an error (use {@link replace}). Missing fields read as ''. */
  add(id: string, fields: Record<string, string | undefined>): void {
    if (this.search.has(id)) throw new Error(`PrefixIndex: duplicate id '${id}'`);
    this.search.add(this.entry(id, fields));
  }

  /** Adds or replaces the entry `id`. */
  replace(id: string, fields: Record<string, string | undefined>): void {
    if (this.search.has(id)) this.search.discard(id);
    this.search.add(this.entry(id, fields));
  }

  /** Removes the entry `id`; false when there was none. */
  remove(id: string): boolean {
    if (!this.search.has(id)) return false;
    // `discard` needs no copy of the original fields; MiniSearch vacuums the index lazily.
    this.search.discard(id);
    return true;
  }

  /**
   * Up to `limit` (default 10) entries matching `query` as it is being typed, best first
   * (ties by id, so the order is stable). Empty for a query with no word characters.
   */
  suggest(query: string, limit = 10): PrefixSuggestion[] {
    const tokens = tokenize(query);
    if (tokens.length === 0 || limit <= 0) return [];
    const fuzzy = this.fuzzy;
    const queries: Query[] = tokens.map((token) => {
      const whole = token.text.toLowerCase();
      if (token.kind !== 'identifier') return whole;
      return {
        combineWith: 'OR',
        queries: [
          { tokenize: asIs, queries: [whole] },
          { combineWith: 'AND', tokenize: asIs, queries: identifierParts(token.text) },
        ],
      };
    });
    const results = this.search.search(
      { combineWith: 'AND', queries },
      { prefix: this.prefix, fuzzy: (term) => fuzzy(term) || false },
    );
    results.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return results.slice(0, limit).map((r) => ({ id: r.id as string, score: r.score, terms: [...r.terms].sort() }));
  }

  private entry(id: string, fields: Record<string, string | undefined>): Entry {
    const entry: Entry = { [ID]: id };
    for (const field of this.fields) entry[field] = fields[field] ?? '';
    return entry;
  }
}
