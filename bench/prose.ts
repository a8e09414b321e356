/**
 * Text for generated workspaces: sentences, lists, code blocks and headings drawn from
 * {@link WORDS} with a Zipf distribution, mixed with a topic's own words and identifiers, so
 * postings lengths look like real docs: a few terms in nearly every section, a long tail of rare
 * ones, and identifiers (`ledger-0412-worker`, `LEDGER_MAX_7`) that occur in a handful of places.
 */
import { type Random, ZipfSampler } from './random';
import { WORDS } from './vocabulary';

/** Zipf exponent over {@link WORDS}; 1.0 is the classic figure for English text. */
export const ZIPF_EXPONENT = 1.0;
/** Share of words drawn from the topic's own word list (burstiness: a repo repeats its subject). */
const TOPIC_SHARE = 0.2;
/** Share of words that are one of the topic's identifiers. */
const IDENTIFIER_SHARE = 0.04;
/** Ranks below this are function words and the commonest nouns: never topic words or headings. */
const HEAD_RANKS = 60;

const zipf = new ZipfSampler(WORDS.length, ZIPF_EXPONENT);

/** Words YAML reads as something other than a string; never used where a bare word lands in YAML. */
const YAML_WORDS = new Set(['true', 'false', 'null', 'yes', 'no', 'on', 'off']);

/** What a repository (or a library folder) writes about: its words and its identifiers. */
export interface Topic {
  /** The topic's subject word (`ledger`), used in names. */
  subject: string;
  words: string[];
  identifiers: string[];
}

/** A topic of `wordCount` mid-frequency words and generated identifiers; `names` join them. */
export function makeTopic(random: Random, subject: string, names: readonly string[] = [], wordCount = 40): Topic {
  const words = [subject];
  while (words.length < wordCount) {
    const w = WORDS[zipf.draw(random, HEAD_RANKS)];
    if (!words.includes(w) && !YAML_WORDS.has(w)) words.push(w);
  }
  const upper = subject.toUpperCase();
  const identifiers = [...names];
  for (let i = 0; i < 6; i++) identifiers.push(`${upper}_${random.pick(words).toUpperCase()}_${random.int(1, 99)}`);
  for (let i = 0; i < 4; i++)
    identifiers.push(
      `${subject}.${random.pick(words)}.${random.pick(['seconds', 'total', 'count', 'bytes', 'ratio'])}`,
    );
  for (let i = 0; i < 4; i++) identifiers.push(`${random.pick(words)}${capitalise(random.pick(words))}`);
  return { subject, words, identifiers };
}

export class Prose {
  constructor(private readonly random: Random) {}

  /** One word: mostly the global distribution, sometimes the topic's words or identifiers. */
  word(topic: Topic): string {
    const r = this.random.next();
    if (r < IDENTIFIER_SHARE) {
      const id = this.random.pick(topic.identifiers);
      return this.random.chance(0.5) ? `\`${id}\`` : id;
    }
    if (r < IDENTIFIER_SHARE + TOPIC_SHARE) return this.random.pick(topic.words);
    return WORDS[zipf.draw(this.random)];
  }

  /** A word of the tail (rank >= 60), for headings and names; never one YAML would read as a non-string. */
  rareWord(): string {
    for (;;) {
      const w = WORDS[zipf.draw(this.random, HEAD_RANKS)];
      if (!YAML_WORDS.has(w)) return w;
    }
  }

  sentence(topic: Topic, min = 6, max = 18): string {
    const n = this.random.int(min, max);
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      let w = this.word(topic);
      // A YAML plain scalar cannot start with a backtick, and prose sentences end up in front matter.
      if (i === 0) w = capitalise(w.replace(/`/g, ''));
      else if (i < n - 1 && this.random.chance(0.07)) w += ',';
      out.push(w);
    }
    return `${out.join(' ')}.`;
  }

  /** A paragraph of about `words` words, wrapped at 100 characters like hand-written Markdown. */
  paragraph(topic: Topic, words: number): string {
    const sentences: string[] = [];
    let count = 0;
    while (count < words) {
      const s = this.sentence(topic);
      sentences.push(s);
      count += s.split(' ').length;
    }
    return wrap(sentences.join(' '));
  }

  /** A Markdown section body of about `words` words: paragraphs, sometimes a list or a code block. */
  body(topic: Topic, words: number): string {
    const blocks: string[] = [];
    let left = words;
    while (left > 0) {
      const r = this.random.next();
      if (r < 0.18 && blocks.length > 0) {
        const items = this.random.int(3, 6);
        const lines: string[] = [];
        for (let i = 0; i < items; i++) lines.push(`- ${this.sentence(topic, 4, 12)}`);
        blocks.push(lines.join('\n'));
        left -= items * 8;
      } else if (r < 0.26 && blocks.length > 0) {
        blocks.push(this.codeBlock(topic));
        left -= 8;
      } else {
        const n = Math.min(left, this.random.int(30, 80));
        blocks.push(this.paragraph(topic, n));
        left -= n;
      }
    }
    return blocks.join('\n\n');
  }

  /** A heading of 1-4 words, capitalised. */
  heading(topic: Topic): string {
    const n = this.random.int(1, 4);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(this.random.chance(0.4) ? this.random.pick(topic.words) : this.rareWord());
    return capitalise(out.join(' '));
  }

  /** Words per section: log-normal-ish around 90, between 20 and 400. */
  sectionLength(): number {
    const u = this.random.next() + this.random.next() + this.random.next();
    return Math.max(20, Math.min(400, Math.round(90 * Math.exp((u - 1.5) * 1.2))));
  }

  private codeBlock(topic: Topic): string {
    const tool = this.random.pick(['kubectl', 'helm', 'psql', 'curl', 'make', 'pnpm', 'terraform', 'aws']);
    const lines: string[] = [];
    const n = this.random.int(1, 3);
    for (let i = 0; i < n; i++) {
      lines.push(
        `${tool} ${this.rareWord()} ${this.random.pick(topic.identifiers)} --${this.random.pick(topic.words)}=${this.random.int(1, 500)}`,
      );
    }
    return ['```sh', ...lines, '```'].join('\n');
  }
}

export function capitalise(text: string): string {
  return text.length === 0 ? text : text[0].toUpperCase() + text.slice(1);
}

/** Breaks text into lines of at most `width` characters at spaces. */
export function wrap(text: string, width = 100): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line.length > 0 && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line.length > 0 ? `${line} ${word}` : word;
    }
  }
  if (line.length > 0) lines.push(line);
  return lines.join('\n');
}
