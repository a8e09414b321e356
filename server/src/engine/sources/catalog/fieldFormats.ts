/**
 * The string formats Backstage enforces on entity envelope fields.
 *
 * Re-implemented from `@backstage/catalog-model` 1.10.x (`KubernetesValidatorFunctions`,
 * `CommonValidatorFunctions` and the defaults of `makeValidator`), which in turn follow the
 * Kubernetes object-name and label rules. The engine cannot depend on that package at run time
 * (it pulls in ajv and lodash for a few regular expressions), so the rules live here and
 * `test/unit/engine/sources/catalog/validateEntity.test.ts` checks them value by value against
 * the package itself.
 */

/** A format check plus the sentence that says what it expects. */
export interface FieldFormat {
  /** Short noun used in messages: `metadata.name "Foo Bar" is not a valid name`. */
  readonly noun: string;
  /** What a valid value looks like, phrased to follow "expected". */
  readonly expectation: string;
  readonly test: (value: unknown) => boolean;
}

const DNS_LABEL = /^[a-z0-9]+(?:-+[a-z0-9]+)*$/;
const OBJECT_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const KIND = /^[a-zA-Z][a-z0-9A-Z]*$/;
const API_VERSION_SUFFIX = /^[a-z0-9A-Z]+$/;
// makeValidator's default tag rule also admits ':' (FieldFormatEntityPolicy's message does not say so).
const TAG = /^[a-z0-9:+#]+(-[a-z0-9:+#]+)*$/;

/** RFC 1123 label: 1-63 of [a-z0-9] in runs separated by '-'. */
export function isValidDnsLabel(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= 63 && DNS_LABEL.test(value);
}

/** RFC 1123 subdomain: at most 253 characters of dot-separated DNS labels. */
export function isValidDnsSubdomain(value: unknown): value is string {
  return (
    typeof value === 'string' && value.length >= 1 && value.length <= 253 && value.split('.').every(isValidDnsLabel)
  );
}

/** `<suffix>` or `<prefix>/<suffix>`, each part checked separately; more than one separator fails. */
function isValidPrefixAndOrSuffix(
  value: unknown,
  isValidPrefix: (part: string) => boolean,
  isValidSuffix: (part: string) => boolean,
): boolean {
  if (typeof value !== 'string') return false;
  const parts = value.split('/');
  if (parts.length === 1) return isValidSuffix(parts[0]);
  if (parts.length === 2) return isValidPrefix(parts[0]) && isValidSuffix(parts[1]);
  return false;
}

/** Kubernetes object name: 1-63 of [A-Za-z0-9] in runs separated by any of [-_.]. */
export function isValidObjectName(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= 63 && OBJECT_NAME.test(value);
}

export function isValidApiVersion(value: unknown): value is string {
  return isValidPrefixAndOrSuffix(
    value,
    isValidDnsSubdomain,
    (n) => n.length >= 1 && n.length <= 63 && API_VERSION_SUFFIX.test(n),
  );
}

export function isValidKind(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= 63 && KIND.test(value);
}

export function isValidNamespace(value: unknown): value is string {
  return isValidDnsLabel(value);
}

export function isValidLabelKey(value: unknown): value is string {
  return isValidPrefixAndOrSuffix(value, isValidDnsSubdomain, isValidObjectName);
}

export function isValidLabelValue(value: unknown): value is string {
  return value === '' || isValidObjectName(value);
}

export function isValidAnnotationKey(value: unknown): value is string {
  return isValidPrefixAndOrSuffix(value, isValidDnsSubdomain, isValidObjectName);
}

export function isValidAnnotationValue(value: unknown): value is string {
  return typeof value === 'string';
}

export function isValidTag(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= 63 && TAG.test(value);
}

/** Anything the WHATWG URL parser accepts, as Backstage checks `metadata.links[].url`. */
export function isValidUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** A string with at least one non-whitespace character. */
export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length >= 1;
}

const OBJECT_NAME_EXPECTATION = 'sequences of [a-zA-Z0-9] separated by any of [-_.], at most 63 characters in total';
const DNS_LABEL_EXPECTATION = 'sequences of [a-z0-9] separated by [-], at most 63 characters in total';
const PREFIX_SUFFIX_EXPECTATION =
  'an optional DNS-subdomain prefix and a "/", then sequences of [a-zA-Z0-9] separated by any of [-_.], at most 63 characters';

/** Every envelope format, with the wording used in problems. */
export const FIELD_FORMATS = {
  apiVersion: {
    noun: 'apiVersion',
    expectation:
      'an optional DNS-subdomain prefix and a "/", then 1-63 characters of [a-zA-Z0-9] (e.g. backstage.io/v1alpha1)',
    test: isValidApiVersion,
  },
  kind: {
    noun: 'kind',
    expectation: 'a letter followed by letters and digits, at most 63 characters in total',
    test: isValidKind,
  },
  entityName: { noun: 'name', expectation: OBJECT_NAME_EXPECTATION, test: isValidObjectName },
  namespace: { noun: 'namespace', expectation: DNS_LABEL_EXPECTATION, test: isValidNamespace },
  labelKey: { noun: 'label key', expectation: PREFIX_SUFFIX_EXPECTATION, test: isValidLabelKey },
  labelValue: {
    noun: 'label value',
    expectation: `an empty string or ${OBJECT_NAME_EXPECTATION}`,
    test: isValidLabelValue,
  },
  annotationKey: { noun: 'annotation key', expectation: PREFIX_SUFFIX_EXPECTATION, test: isValidAnnotationKey },
  annotationValue: { noun: 'annotation value', expectation: 'a string', test: isValidAnnotationValue },
  tag: {
    noun: 'tag',
    expectation: 'sequences of [a-z0-9:+#] separated by [-], at most 63 characters in total',
    test: isValidTag,
  },
  url: { noun: 'URL', expectation: 'an absolute URL', test: isValidUrl },
  nonEmptyString: { noun: 'value', expectation: 'a non-empty string', test: isNonEmptyString },
} as const satisfies Record<string, FieldFormat>;
