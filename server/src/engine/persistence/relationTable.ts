/**
 * The catalog's relations as a snapshot writes them: every string once in a table, each relation
 * a row of nine numbers. A restart reads them back instead of deriving them again from the
 * entities: at 7,500 entities and 54,000 relations the derivation (parsing every ref, building
 * edge ids for de-duplication) cost ~0.2 s of a quiet restart and more in garbage collection,
 * where these rows (~2.5 MB of JSON numbers) parse in milliseconds. As JSON objects the same
 * relations are ~17 MB, slower to read than to derive, hence the rows.
 *
 *   row: source, type, target, sourceRef, targetRef, origin.path, origin.field (indices into
 *        `strings`), resolved (0 or 1), origin.line
 *
 * The two halves of a declared pair share one origin object, as derived relations do.
 */
import type { Relation, RelationType } from '../model';

export interface RelationTable {
  strings: string[];
  rows: number[];
}

const ROW = 9;

export function encodeRelations(relations: readonly Relation[]): RelationTable {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const at = (s: string): number => {
    let i = index.get(s);
    if (i === undefined) {
      i = strings.length;
      strings.push(s);
      index.set(s, i);
    }
    return i;
  };
  const rows: number[] = [];
  for (const r of relations) {
    rows.push(
      at(r.source),
      at(r.type),
      at(r.target),
      at(r.sourceRef),
      at(r.targetRef),
      at(r.origin.path),
      at(r.origin.field),
      r.resolved ? 1 : 0,
      r.origin.line,
    );
  }
  return { strings, rows };
}

/**
 * The relations of a table written by `encodeRelations`.
 * @throws Error starting `snapshot relations:` when a row does not fit the table
 */
export function decodeRelations(table: RelationTable): Relation[] {
  const { strings, rows } = table ?? ({} as Partial<RelationTable>);
  if (!Array.isArray(strings) || !Array.isArray(rows) || rows.length % ROW !== 0)
    throw new Error('snapshot relations: the table is not whole rows');
  const str = (i: number): string => {
    const s = strings[i];
    if (typeof s !== 'string')
      throw new Error(`snapshot relations: string ${i} is not in the table of ${strings.length}`);
    return s;
  };
  const relations: Relation[] = new Array(rows.length / ROW);
  let origin: Relation['origin'] | undefined;
  for (let r = 0, k = 0; k < rows.length; r++, k += ROW) {
    const path = str(rows[k + 5]);
    const field = str(rows[k + 6]);
    const line = rows[k + 8];
    if (!Number.isInteger(line)) throw new Error(`snapshot relations: row ${r} has no line`);
    if (!origin || origin.path !== path || origin.field !== field || origin.line !== line)
      origin = { path, line, field };
    relations[r] = {
      source: str(rows[k]),
      type: str(rows[k + 1]) as RelationType,
      target: str(rows[k + 2]),
      sourceRef: str(rows[k + 3]),
      targetRef: str(rows[k + 4]),
      resolved: rows[k + 7] === 1,
      origin,
    };
  }
  return relations;
}
