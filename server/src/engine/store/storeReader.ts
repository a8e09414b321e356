/**
 * Answers tool calls from an {@link IndexStore}: keeps each namespace's base (catalog, graph,
 * statistics) until a write bumps its generation, and builds each question's state from the
 * candidates the store finds.
 */
import { ComponentGraph } from '../graph/componentGraph';
import type { IndexState, SectionEntry } from '../indexState';
import { entityDictionary } from '../ranking/namedEntities';
import { analyzeQuery } from '../text/analyzer';
import { stripQuestionFrame } from '../text/questionFrame';
import type { IndexStore } from './indexStore';
import { baseState, questionState, type NamespaceBase } from './scopedState';

export class StoreReader {
  private readonly bases = new Map<string, Promise<NamespaceBase | undefined>>();

  constructor(readonly store: IndexStore) {}

  /** The namespace's base, re-read when a write has bumped its generation; undefined when not stored. */
  async base(namespace: string): Promise<NamespaceBase | undefined> {
    const generation = await this.store.generation(namespace);
    if (generation === undefined) {
      this.bases.delete(namespace);
      return undefined;
    }
    const cached = this.bases.get(namespace);
    if (cached) {
      const base = await cached;
      if (base && base.generation === generation) return base;
    }
    // One read per generation however many callers ask at once.
    const reading = this.readBase(namespace);
    this.bases.set(namespace, reading);
    reading.catch(() => this.bases.delete(namespace));
    return reading;
  }

  /** The graph tools' state of a namespace (no sections), or undefined when it is not stored. */
  async baseState(namespace: string): Promise<IndexState | undefined> {
    const base = await this.base(namespace);
    return base ? baseState(base) : undefined;
  }

  /**
   * The state `rankWorkspaceContext` ranks `question` on: the namespace's sections holding any of
   * the question's terms (as the ranker analyses it: its frame stripped, identifiers with their
   * parts) over the base. Undefined when the namespace is not stored.
   */
  async questionState(namespace: string, question: string): Promise<IndexState | undefined> {
    const base = await this.base(namespace);
    if (!base) return undefined;
    const terms = new Set<string>();
    for (const term of analyzeQuery(stripQuestionFrame(question))) {
      terms.add(term.key);
      for (const part of term.parts) terms.add(part);
    }
    const named = entityDictionary(base.entities).find(question).map((e) => e.key);
    const asked = [...terms];
    const rows = await this.store.candidates(namespace, asked, named);
    // A write landed between the base and the candidates: read both at the new generation.
    if (rows.generation !== base.generation) return this.questionState(namespace, question);
    return questionState(base, rows, asked);
  }

  /** Fills in the texts of the passages a question kept (candidates are ranked without them). */
  async completeTexts(namespace: string, entries: readonly SectionEntry[]): Promise<void> {
    const missing = entries.filter((e) => e.section.text === '');
    if (missing.length === 0) return;
    const texts = await this.store.sectionTexts(namespace, missing.map((e) => e.section.id));
    // These sections were made for this one question (scopedState.ts): nothing else holds them.
    for (const entry of missing) entry.section.text = texts.get(entry.section.id) ?? '';
  }

  private async readBase(namespace: string): Promise<NamespaceBase | undefined> {
    const rows = await this.store.readBase(namespace);
    if (!rows) return undefined;
    return {
      info: rows.info,
      generation: rows.generation,
      entities: rows.entities,
      relations: rows.relations,
      graph: new ComponentGraph(rows.entities, rows.relations),
      runHealth: new Map(rows.info.runHealth),
      stats: rows.stats,
    };
  }
}

/** An engine whose tools answer from a store (the `--store` hosts' engines) carries its reader. */
export interface StoreBacked {
  readonly storeReader: StoreReader;
}

/** The store `engine`'s tools answer from, or undefined for the in-memory engine. */
export function storeReaderOf(engine: object): StoreReader | undefined {
  const reader = (engine as Partial<StoreBacked>).storeReader;
  return reader instanceof StoreReader ? reader : undefined;
}
