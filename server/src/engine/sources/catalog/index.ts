/**
 * The Backstage catalog reader: entity refs, entity validation, catalog files, relations and the
 * whole-workspace loader. Everything here follows Backstage's own behaviour (the modules cite the
 * Backstage source each one re-enacts) and never throws on user content.
 */
export {
  DEFAULT_NAMESPACE,
  entityKey,
  parseEntityRef,
  printEntityRef,
  refKey,
  type CompoundRefInput,
  type Parsed,
  type PrintableRef,
  type RefDefaults,
} from './entityRef';
export { formatFieldPath, type FieldPath } from './fieldPath';
export { BUILTIN_API_VERSIONS, BUILTIN_KINDS, isBuiltinKind, type BuiltinKind } from './kindSchemas';
export { validateEntity, type EntityValidation, type FieldIssue, type ValidEntity } from './validateEntity';
export { parseCatalogFile, type CatalogFileParse, type ParsedEntity } from './parseCatalogFile';
export {
  RELATION_FIELDS,
  defaultKindForField,
  parseFieldRef,
  relationFieldsOf,
  type RelationField,
} from './relationFields';
export { deriveRelations, relationsFrom, type DerivedRelations, type RelationSource } from './relations';
export { resolveLocationTarget, type TargetResolution } from './locationTargets';
export {
  loadCatalog,
  renderEntityText,
  type CatalogFileReason,
  type CatalogFileRead,
  type CatalogLoad,
} from './loadCatalog';
