/**
 * Porter's revised stemmer, Porter2 ("english" in Snowball), in its current published form:
 * the Snowball algorithm description english.sbl, with the later additions to it (the R1
 * prefixes `past`, `univers`, `later`, `emerg`, `organ` and `inter`; `ogist` -> `og`; `ying` -> `ie` after
 * one consonant; no undoubling of `add`, `ebb`, `err`, `off`).
 *
 * Why Porter2 and not the 1980 algorithm: the contract's own examples need it (docs/ARCHITECTURE.md, "Text analysis and candidates"). Porter 1980 stems
 * "deploy", "deploying" and "deployed" to `deploi` but "deployment" to `deploy`, so "how to
 * deploy" never met "How deployment works"; Porter2 keeps a final `y` after a vowel and gives
 * `deploy` for all four. The unit test runs Snowball's whole published vocabulary (42,649 words,
 * test/fixtures/snowball-english-porter2) through this module. The npm
 * packages checked (`wink-porter2-stemmer` 2.0.1 among them) implement the 2002 form and differ
 * from that list in 65 words, hence this module.
 *
 * Input: a lower-case word. Words of one or two letters are returned as they are.
 */

const VOWELS = 'aeiouy';

function isVowel(c: string): boolean {
  return VOWELS.includes(c);
}

/** Whole words with a fixed stem (Snowball's exception1). */
const EXCEPTIONS: ReadonlyMap<string, string> = new Map([
  ['skis', 'ski'],
  ['skies', 'sky'],
  ['idly', 'idl'],
  ['gently', 'gentl'],
  ['ugly', 'ugli'],
  ['early', 'earli'],
  ['only', 'onli'],
  ['singly', 'singl'],
  ['sky', 'sky'],
  ['news', 'news'],
  ['howe', 'howe'],
  ['atlas', 'atlas'],
  ['cosmos', 'cosmos'],
  ['bias', 'bias'],
  ['andes', 'andes'],
]);

/** Word beginnings after which R1 starts, whatever the vowels say (generate/general...). */
const R1_PREFIXES = ['gener', 'commun', 'arsen', 'past', 'univers', 'later', 'emerg', 'organ', 'inter'];

/** `eed` is kept on these whole words (proceed, exceed, succeed). */
const EED_KEPT = new Set(['proc', 'exc', 'succ']);
/** `ing` is kept on these whole words (inning, outing, canning, herring, earring, evening). */
const ING_KEPT = new Set(['inn', 'out', 'cann', 'herr', 'earr', 'even']);

const DOUBLES = new Set(['bb', 'dd', 'ff', 'gg', 'mm', 'nn', 'pp', 'rr', 'tt']);
const VALID_LI = 'cdeghkmnrt';

const STEP2: readonly [string, string][] = sortedRules([
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['abli', 'able'],
  ['entli', 'ent'],
  ['izer', 'ize'],
  ['ization', 'ize'],
  ['ational', 'ate'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['aliti', 'al'],
  ['alli', 'al'],
  ['fulness', 'ful'],
  ['ousli', 'ous'],
  ['ousness', 'ous'],
  ['iveness', 'ive'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['bli', 'ble'],
  ['ogist', 'og'],
  ['ogi', 'og'],
  ['fulli', 'ful'],
  ['lessli', 'less'],
  ['li', ''],
]);

const STEP3: readonly [string, string][] = sortedRules([
  ['tional', 'tion'],
  ['ational', 'ate'],
  ['alize', 'al'],
  ['icate', 'ic'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
  ['ative', ''],
]);

const STEP4 = sortedRules(
  [
    'al',
    'ance',
    'ence',
    'er',
    'ic',
    'able',
    'ible',
    'ant',
    'ement',
    'ment',
    'ent',
    'ism',
    'ate',
    'iti',
    'ous',
    'ive',
    'ize',
    'ion',
  ].map((s): [string, string] => [s, '']),
);

/** Longest suffix first, so the first rule that matches is Snowball's `among` choice. */
function sortedRules(rules: [string, string][]): [string, string][] {
  return rules.sort((a, b) => b[0].length - a[0].length);
}

/** The Porter2 stem of a lower-case word. */
export function porter2Stem(input: string): string {
  const fixed = EXCEPTIONS.get(input);
  if (fixed !== undefined) return fixed;
  if (input.length < 3) return input;
  return new Porter2Word(input).stem();
}

/** One word being stemmed: its letters (`Y` marks a consonant y) and its regions. */
class Porter2Word {
  private w: string;
  private p1: number;
  private p2: number;
  private yFound = false;

  constructor(word: string) {
    this.w = word;
    this.prelude();
    [this.p1, this.p2] = this.regions();
  }

  stem(): string {
    this.step1a();
    this.step1b();
    this.step1c();
    this.step2();
    this.step3();
    this.step4();
    this.step5();
    return this.yFound ? this.w.replace(/Y/g, 'y') : this.w;
  }

  /** Drops a leading apostrophe; marks an initial y and a y after a vowel as consonants (`Y`). */
  private prelude(): void {
    if (this.w.startsWith("'")) this.w = this.w.slice(1);
    const chars = [...this.w];
    for (let i = 0; i < chars.length; i++) {
      if (chars[i] === 'y' && (i === 0 || isVowel(chars[i - 1]))) {
        chars[i] = 'Y';
        this.yFound = true;
      }
    }
    this.w = chars.join('');
  }

  /** R1 and R2 start positions (the word's length when empty). */
  private regions(): [number, number] {
    const w = this.w;
    const n = w.length;
    // A region is "after the first non-vowel following a vowel"; gopast v, then gopast non-v.
    const gopast = (from: number): number => {
      let i = from;
      while (i < n && !isVowel(w[i])) i++;
      if (i >= n) return n;
      i++;
      while (i < n && isVowel(w[i])) i++;
      if (i >= n) return n;
      return i + 1;
    };
    const prefix = R1_PREFIXES.filter((p) => w.startsWith(p)).sort((a, b) => b.length - a.length)[0];
    const p1 = prefix !== undefined ? prefix.length : gopast(0);
    const p2 = p1 >= n ? n : gopast(p1);
    return [p1, p2];
  }

  private ends(suffix: string): boolean {
    return this.w.endsWith(suffix);
  }

  private replace(suffixLength: number, by: string): void {
    this.w = this.w.slice(0, this.w.length - suffixLength) + by;
  }

  private inR1(position: number): boolean {
    return position >= this.p1;
  }

  private inR2(position: number): boolean {
    return position >= this.p2;
  }

  /** True when the word up to `end` ends in a short syllable (Snowball's shortv). */
  private shortSyllableBefore(end: number): boolean {
    const w = this.w;
    if (end >= 3 && !isVowel(w[end - 1]) && !'wxY'.includes(w[end - 1]) && isVowel(w[end - 2]) && !isVowel(w[end - 3]))
      return true;
    if (end === 2 && !isVowel(w[1]) && isVowel(w[0])) return true;
    return w.slice(0, end).endsWith('past');
  }

  private step1a(): void {
    for (const s of ["'s'", "'s", "'"]) {
      if (this.ends(s)) {
        this.replace(s.length, '');
        break;
      }
    }
    const w = this.w;
    if (this.ends('sses')) this.replace(4, 'ss');
    else if (this.ends('ied') || this.ends('ies')) this.replace(3, w.length - 3 > 1 ? 'i' : 'ie');
    else if (this.ends('us') || this.ends('ss')) return;
    else if (this.ends('s')) {
      // Delete when a vowel comes anywhere before the letter preceding the s ("gaps" -> "gap", "gas" stays).
      const before = w.slice(0, w.length - 2);
      if (w.length >= 2 && [...before].some(isVowel)) this.replace(1, '');
    }
  }

  private step1b(): void {
    const w = this.w;
    const eed = this.ends('eedly') ? 5 : this.ends('eed') ? 3 : 0;
    if (eed) {
      const stem = w.slice(0, w.length - eed);
      if (EED_KEPT.has(stem)) return;
      if (this.inR1(stem.length)) this.replace(eed, 'ee');
      return;
    }
    const suffix = ['ingly', 'edly', 'ing', 'ed'].find((s) => this.ends(s));
    if (!suffix) return;
    const stem = w.slice(0, w.length - suffix.length);
    if (suffix === 'ing') {
      // dying -> die, lying -> lie, tying -> tie, vying -> vie.
      if (stem.length === 2 && stem[1] === 'y' && !isVowel(stem[0])) {
        this.w = `${stem[0]}ie`;
        return;
      }
      if (ING_KEPT.has(stem)) return;
    }
    if (![...stem].some(isVowel)) return;
    this.w = stem;
    if (this.ends('at') || this.ends('bl') || this.ends('iz')) {
      this.w += 'e';
      return;
    }
    const last2 = stem.slice(-2);
    if (DOUBLES.has(last2)) {
      // Undouble ("hopping" -> "hop"), except after a lone a, e or o ("added" -> "add").
      if (!(stem.length === 3 && 'aeo'.includes(stem[0]))) this.w = stem.slice(0, -1);
      return;
    }
    if (stem.length === this.p1 && this.shortSyllableBefore(stem.length)) this.w += 'e';
  }

  private step1c(): void {
    const w = this.w;
    const last = w[w.length - 1];
    if ((last === 'y' || last === 'Y') && w.length > 2 && !isVowel(w[w.length - 2])) this.replace(1, 'i');
  }

  private step2(): void {
    const rule = STEP2.find(([s]) => this.ends(s));
    if (!rule) return;
    const [suffix, by] = rule;
    const start = this.w.length - suffix.length;
    if (!this.inR1(start)) return;
    if (suffix === 'ogi' && this.w[start - 1] !== 'l') return;
    if (suffix === 'li' && !VALID_LI.includes(this.w[start - 1] ?? '')) return;
    this.replace(suffix.length, by);
  }

  private step3(): void {
    const rule = STEP3.find(([s]) => this.ends(s));
    if (!rule) return;
    const [suffix, by] = rule;
    const start = this.w.length - suffix.length;
    if (!this.inR1(start)) return;
    if (suffix === 'ative' && !this.inR2(start)) return;
    this.replace(suffix.length, by);
  }

  private step4(): void {
    const rule = STEP4.find(([s]) => this.ends(s));
    if (!rule) return;
    const [suffix] = rule;
    const start = this.w.length - suffix.length;
    if (!this.inR2(start)) return;
    if (suffix === 'ion' && !'st'.includes(this.w[start - 1] ?? '_')) return;
    this.replace(suffix.length, '');
  }

  private step5(): void {
    const w = this.w;
    const start = w.length - 1;
    if (this.ends('e')) {
      if (this.inR2(start) || (this.inR1(start) && !this.shortSyllableBefore(start))) this.replace(1, '');
    } else if (this.ends('l')) {
      if (this.inR2(start) && w[start - 1] === 'l') this.replace(1, '');
    }
  }
}
