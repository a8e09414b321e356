/**
 * A measurement's values of the contract's fitted constants (contract.ts RankingTuning, set only
 * by bench/eval.ts `--grid` and `--tune`): the field model, the parts' credits and the documents'
 * match scales the ranker uses in place of the published ones. Nothing that answers users sets a
 * tuning; with none, the ranker uses the published values directly and never calls these.
 */
import type { FieldModel } from '../lexical/postings';
import * as contract from './contract';
import type { RankingTuning, TunableConstant } from './contract';
import type { PartCredits } from './questionUnits';
import type { RankingTables } from './rankingTables';

const value = (tuning: RankingTuning, name: TunableConstant) => tuning[name] ?? contract.publishedValue(name);

/** The parts' and trailing forms' credits with a measurement's values (contract.ts RankingTuning). */
export function tunedPartCredits(tuning: RankingTuning): PartCredits {
  return {
    identifierPart: value(tuning, 'IDENTIFIER_PART_CREDIT'),
    spelledIdentifierPart: value(tuning, 'SPELLED_IDENTIFIER_PART_CREDIT'),
    trailingFormMax: value(tuning, 'TRAILING_FORM_CREDIT_MAX'),
  };
}

/**
 * The per-document match scales with a measurement's record and release-note weights: the
 * published tables' arrays unless it varies them. A slot per document, then per FAQ entry (its
 * document's), as the tables hold them.
 */
export function tunedMatchScale(tables: RankingTables, releasesAsked: boolean, tuning: RankingTuning): Float64Array {
  const published = releasesAsked ? tables.matchScaleOfDoc : tables.pageMatchScaleOfDoc;
  const signed = tuning.SIGNED_RECORD_WEIGHT;
  const release = tuning.RELEASE_NOTE_WEIGHT;
  if (signed === undefined && release === undefined) return published;
  const docs = tables.docs.length;
  const scale = new Float64Array(published.length);
  for (let slot = 0; slot < scale.length; slot++) {
    const d = slot < docs ? slot : tables.entries.docOf[slot - docs];
    const record = tables.signedRecordDoc[d] ? (signed ?? contract.SIGNED_RECORD_WEIGHT) : 1;
    const note = !releasesAsked && tables.releaseNoteDoc[d] ? (release ?? contract.RELEASE_NOTE_WEIGHT) : 1;
    scale[slot] = record * note;
  }
  return scale;
}

/** The field model with a measurement's values of the contract's constants (contract.ts RankingTuning). */
export function tunedFieldModel(base: FieldModel, question: boolean, tuning: RankingTuning): FieldModel {
  return {
    k1: value(tuning, 'BM25F_K1'),
    weight: {
      ...base.weight,
      heading: value(tuning, 'FIELD_WEIGHTS.heading'),
      title: value(tuning, 'FIELD_WEIGHTS.title'),
      context: value(tuning, 'FIELD_WEIGHTS.context'),
    },
    b: {
      ...base.b,
      body: value(tuning, 'FIELD_LENGTH_NORMALISATION.body'),
      heading: value(tuning, 'FIELD_LENGTH_NORMALISATION.heading'),
      title: value(tuning, 'FIELD_LENGTH_NORMALISATION.title'),
    },
    questionHeadingBoost: question ? value(tuning, 'QUESTION_HEADING_BOOST') : 1,
  };
}
