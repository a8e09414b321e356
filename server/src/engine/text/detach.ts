/**
 * Copies of strings that do not keep their source text alive.
 *
 * V8 represents a slice of 13 or more characters as a view on the whole source string, and
 * `toLowerCase()` of an all-lower-case string returns that same view. Kept in a memo or an index
 * dictionary, one long token would pin its entire section's text (measured: 2,000 tokens sliced
 * from 100 kB texts held 200 MB). Concatenating first makes a fresh string of the token alone.
 * Shorter slices are copies already and are returned as they are.
 */
export function detach(slice: string): string {
  return slice.length < 13 ? slice : ` ${slice}`.slice(1);
}

/**
 * `value` with every string in it detached, in place: plain objects and arrays are walked, their
 * string members replaced. For what a parser returns and the index keeps after the file's text is
 * dropped (a heading, a front matter value): each is a slice of the whole file, so one 30-character
 * heading held a 4 kB page (measured at 100k sections: 29 MB of page texts held by such slices).
 * `copies` shares one copy among equal strings (a heading every section of its page repeats).
 */
export function detachAll<T>(value: T, copies: Map<string, string> = new Map()): T {
  if (typeof value === 'string') return detachShared(value, copies) as T;
  if (Object.isFrozen(value)) return value; // shared constants (an empty list) hold no slice
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = detachAll(value[i], copies);
  } else if (isPlainObject(value)) {
    for (const key of Object.keys(value)) {
      const member = value[key];
      // A copy is equal to its slice (`===` cannot tell them apart), so every string is put back.
      // With defineProperty: a YAML key `__proto__` is an own property here, and assigning to
      // it would change the object's prototype instead.
      if (typeof member === 'string') {
        Object.defineProperty(value, key, {
          value: detachShared(member, copies),
          writable: true,
          enumerable: true,
          configurable: true,
        });
      } else detachAll(member, copies);
    }
  }
  return value;
}

function detachShared(text: string, copies: Map<string, string>): string {
  if (text.length < 13) return text;
  let copy = copies.get(text);
  if (copy === undefined) {
    copy = detach(text);
    copies.set(copy, copy);
  }
  return copy;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
