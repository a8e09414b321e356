/**
 * The baselines every figure is compared with, behind one interface: each is built from the same
 * passages (caller's id and text) and answers the same query strings with ranked ids.
 *
 * - `bm25`: bm25.ts, the typed-array postings + BM25 reference (the physical limit).
 * - `minisearch`: MiniSearch 7 with default options (one field, `search(query)` as it comes: OR of
 *   terms, BM25+, no prefix or fuzzy matching, no stemming or stop words).
 * - `lunr`: Lunr 2 with its default pipeline (trimmer, English stop words, Porter stemmer). The
 *   query is tokenized, trimmed and stop-worded as the indexed text was, and its terms go in
 *   through `Index.query` as optional terms (the search pipeline stems them): what `Index.search`
 *   does with plain words, without failing on characters Lunr's query syntax reserves (`:`, `~`,
 *   `^`). Backstage's Lunr engine adds trailing-wildcard and edit-distance-2 variants of every
 *   term, which cost more; this is the cheaper default.
 */
import lunr from 'lunr';
import MiniSearch from 'minisearch';
import { Bm25Index } from './bm25';

export interface Passage {
  id: number;
  text: string;
}

export interface SearchEngine {
  /** Ids of the best `k` passages for `query`, best first. */
  search(query: string, k: number): number[];
}

export interface Baseline {
  /** Short key used in JSON. */
  key: 'bm25' | 'minisearch' | 'lunr';
  /** Name printed in tables. */
  label: string;
  build(passages: readonly Passage[]): SearchEngine;
}

export const BASELINES: readonly Baseline[] = [
  {
    key: 'bm25',
    label: 'typed-array postings + BM25 (reference)',
    build: (passages) => Bm25Index.build(passages),
  },
  {
    key: 'minisearch',
    label: 'MiniSearch 7 search(), defaults',
    build(passages) {
      const index = new MiniSearch<Passage>({ fields: ['text'] });
      index.addAll(passages);
      return { search: (query, k) => index.search(query).slice(0, k).map((r) => r.id as number) };
    },
  },
  {
    key: 'lunr',
    label: 'Lunr 2, default pipeline',
    build(passages) {
      const index = lunr(function () {
        this.ref('id');
        this.field('text');
        for (const p of passages) this.add({ id: String(p.id), text: p.text });
      });
      const queryPipeline = new lunr.Pipeline();
      queryPipeline.add(lunr.trimmer, lunr.stopWordFilter);
      return {
        search(query, k) {
          const tokens = queryPipeline.run(lunr.tokenizer(query));
          return index.query((q) => q.term(tokens, {})).slice(0, k).map((r) => Number(r.ref));
        },
      };
    },
  },
];
