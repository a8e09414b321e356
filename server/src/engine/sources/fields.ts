/**
 * Typed reads of user-written YAML fields (front matter, folder.yaml, packs, mkdocs.yml).
 *
 * A field of the wrong type never discards the rest of the file: the reader returns the default,
 * records a problem naming the field and its line, and the caller keeps going.
 */
import type { Problem } from '../model';

export interface FieldContext {
  path: string;
  /** 1-based line of each top-level key (from `parseYamlMap` or `parseFrontMatter`). */
  keyLines: Record<string, number>;
  /** Problem code, e.g. `library.invalid-field`. */
  code: string;
  /** How messages name the field's home: "Front matter field", "Pack field"... */
  label: string;
  /** Line used when a key has no recorded line. Default 1. */
  fallbackLine?: number;
  problems: Problem[];
}

export class FieldReader {
  constructor(
    private readonly data: Record<string, unknown>,
    private readonly context: FieldContext,
  ) {}

  has(key: string): boolean {
    return this.data[key] !== undefined && this.data[key] !== null;
  }

  /** Text (numbers are read as text); anything else is a problem. Blank text counts as absent. */
  string(key: string): string | undefined {
    const value = this.data[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
    if (typeof value === 'number') return String(value);
    this.report(key, 'must be text');
    return undefined;
  }

  /**
   * A list of text items. A single text value is a one-item list, or with `commaSeparated` a
   * comma-separated list (Copilot's `applyTo: "**\/*.ts,**\/*.tsx"`). Non-text items are dropped
   * with one problem.
   */
  stringList(key: string, options: { commaSeparated?: boolean } = {}): string[] {
    const value = this.data[key];
    if (value === undefined || value === null) return [];
    const split = (text: string) =>
      (options.commaSeparated ? text.split(',') : [text]).map((item) => item.trim()).filter((item) => item !== '');
    if (typeof value === 'string') return split(value);
    if (typeof value === 'number') return [String(value)];
    if (!Array.isArray(value)) {
      this.report(key, 'must be a list of text items');
      return [];
    }
    const items: string[] = [];
    let bad = 0;
    for (const item of value) {
      if (typeof item === 'string') items.push(...split(item));
      else if (typeof item === 'number') items.push(String(item));
      else if (item !== null) bad++;
    }
    if (bad > 0) this.report(key, `must contain only text items (${bad} ignored)`);
    return items;
  }

  /** `true`/`false` (also the strings "true"/"false", any case); anything else is a problem. */
  boolean(key: string): boolean | undefined {
    const value = this.data[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'boolean') return value;
    if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
    this.report(key, 'must be true or false');
    return undefined;
  }

  /** One of `allowed` (compared case-insensitively, returned as listed). */
  oneOf<T extends string>(key: string, allowed: readonly T[]): T | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    const match = allowed.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
    if (!match) this.report(key, `must be one of ${allowed.map((a) => `'${a}'`).join(', ')} (got '${value}')`);
    return match;
  }

  /**
   * A calendar date as `YYYY-MM-DD` (a timestamp keeps its date part; a YAML date object is
   * accepted too). Impossible dates such as 2025-02-30 are problems.
   */
  date(key: string): string | undefined {
    const value = this.data[key];
    if (value === undefined || value === null) return undefined;
    if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString().slice(0, 10);
    if (typeof value === 'string') {
      const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(value.trim());
      if (match && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]))) {
        return `${match[1]}-${match[2]}-${match[3]}`;
      }
    }
    this.report(key, `must be a date written YYYY-MM-DD (got ${JSON.stringify(value)})`);
    return undefined;
  }

  report(key: string, what: string): void {
    this.context.problems.push({
      path: this.context.path,
      line: this.context.keyLines[key] ?? this.context.fallbackLine ?? 1,
      severity: 'warning',
      code: this.context.code,
      message: `${this.context.label} '${key}' ${what}.`,
    });
  }
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
