/**
 * Which catalog entities a question names (the contract's named-entity bonus).
 *
 * A question names an entity when it contains the entity's full ref (`component:default/billing-worker`,
 * `component:billing-worker`), its name, or its title, compared case-insensitively with `-`, `_`
 * and spaces treated alike ("billing worker", "Billing-Worker" and `billing_worker` all name
 * `billing-worker`). Names are matched as whole word sequences, never inside a longer word.
 */
import type { CatalogEntity, EntityKey } from '../model';

export interface NamedEntity {
  key: EntityKey;
  ref: string;
  /** The words of the question that named it, as written after normalisation. */
  phrase: string;
}

/** Longest name matched, in words. */
const MAX_PHRASE_WORDS = 8;

export class EntityDictionary {
  private readonly phrases = new Map<string, EntityKey[]>();
  private readonly byKey = new Map<EntityKey, CatalogEntity>();

  constructor(entities: readonly CatalogEntity[]) {
    for (const entity of entities) {
      this.byKey.set(entity.key, entity);
      const forms = new Set(
        [entity.name, entity.title ?? '', entity.ref, `${entity.kind}:${entity.name}`].map(normalizeName),
      );
      for (const form of forms) {
        if (!form) continue;
        const list = this.phrases.get(form);
        if (!list) this.phrases.set(form, [entity.key]);
        else if (!list.includes(entity.key)) list.push(entity.key);
      }
    }
  }

  /** Entities the question names, in the order first named. */
  find(question: string): NamedEntity[] {
    const words = normalizeName(question).split(' ').filter(Boolean);
    const found: NamedEntity[] = [];
    const seen = new Set<EntityKey>();
    for (let i = 0; i < words.length; i++) {
      // Longest phrase first, so "billing worker" wins over "billing" at the same position.
      for (let n = Math.min(MAX_PHRASE_WORDS, words.length - i); n >= 1; n--) {
        const phrase = words.slice(i, i + n).join(' ');
        const keys = this.phrases.get(phrase);
        if (!keys) continue;
        for (const key of keys) {
          if (seen.has(key)) continue;
          seen.add(key);
          found.push({ key, ref: this.byKey.get(key)!.ref, phrase });
        }
        break;
      }
    }
    return found;
  }
}

/**
 * Lower-cases, turns `-`, `_` and runs of other separators into single spaces, and keeps `:` and
 * `/` inside refs so `component:default/billing-worker` stays one phrase of its own.
 */
export function normalizeName(text: string): string {
  return text
    .toLowerCase()
    .replace(/[-_]+/g, ' ')
    .replace(/[^\p{L}\p{N}:/.\s]+/gu, ' ')
    .replace(/(^|\s)[:/.]+|[:/.]+(?=\s|$)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The words with which `question` names the served folder `folder` (its name compared as an
 * entity's is: `sealed secrets` and `Sealed-Secrets` name `sealed-secrets`), or undefined. A
 * repository served beside others is what a question about one project names.
 */
export function folderNamedBy(question: string, folder: string): string | undefined {
  const name = normalizeName(folder);
  if (!name) return undefined;
  return ` ${normalizeName(question)} `.includes(` ${name} `) ? name : undefined;
}

const dictionaries = new WeakMap<readonly CatalogEntity[], EntityDictionary>();

/** The dictionary of an entity list, built once per list (index states share unchanged lists). */
export function entityDictionary(entities: readonly CatalogEntity[]): EntityDictionary {
  let dictionary = dictionaries.get(entities);
  if (!dictionary) {
    dictionary = new EntityDictionary(entities);
    dictionaries.set(entities, dictionary);
  }
  return dictionary;
}
