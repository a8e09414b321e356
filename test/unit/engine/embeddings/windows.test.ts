import * as assert from 'node:assert/strict';
import {
  bestWindowScore,
  bestWindowScores,
  planWindows,
  splitWindows,
} from '../../../../server/src/engine/embeddings/windows';
import { dot } from '../../../../server/src/engine/embeddings/vectorMath';
import { ExactIndex } from '../../../../server/src/engine/vector/exactIndex';
import { sharedLocalEmbedder } from './sharedLocalEmbedder';

const sentences = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word}${i} ends here.`).join(' ');
const spans = (ws: { start: number; end: number }[]) => ws.map((w) => [w.start, w.end]);

// Paragraphs about office matters, then one about payment retries: a long section whose meaning
// for a billing question lives in its last part.
const OFFICE = [
  'The office kitchen is cleaned every Friday afternoon; please label your food and take home anything left in the fridge.',
  'Parking passes are renewed in January. Bring your badge to the front desk and sign the visitor log for guests.',
  'The quarterly all-hands meeting is held in the large auditorium, with a recording posted to the intranet afterwards.',
  'New laptops are ordered through the equipment portal; choose a model from the approved list and your manager approves it.',
  'Holiday schedules are published in November, and swaps between colleagues need to be agreed in writing.',
  'The library on the third floor lends books for two weeks and renewals can be requested at the reception desk.',
];
const RETRIES = [
  'When a customer payment fails, the billing worker starts the dunning process.',
  'It re-attempts the charge on a collection schedule: after one day, three days and seven days.',
  'Each failed retry emails the billing contact with a link to update the card.',
  'After the last failed attempt the invoice is marked uncollectible and the account is suspended.',
].join(' ');
const LONG_SECTION = [...OFFICE, ...OFFICE, ...OFFICE, RETRIES].join('\n\n');

describe('engine/embeddings/windows', function () {
  // Loading a model in a worker takes seconds on a busy machine (mocha's default is 2 s).
  this.timeout(60_000);
  it('keeps a text that fits as one window', () => {
    assert.deepEqual(splitWindows('short text', { maxTokens: 256 }), [{ start: 0, end: 10, text: 'short text' }]);
    assert.deepEqual(splitWindows('', { maxTokens: 256 }), [{ start: 0, end: 0, text: '' }]);
  });

  it('packs whole paragraphs and cuts at paragraph breaks', () => {
    const text = [sentences(3, 'alpha'), sentences(3, 'beta'), sentences(3, 'gamma')].join('\n\n');
    const windows = splitWindows(text, { maxTokens: 16, overlapTokens: 0 }); // 64 characters
    assert.deepEqual(
      windows.map((w) => w.text),
      [sentences(3, 'alpha'), sentences(3, 'beta'), sentences(3, 'gamma')],
    );
    for (const w of windows) assert.equal(text.slice(w.start, w.end), w.text);
  });

  it('overlaps consecutive windows by whole sentences', () => {
    const text = sentences(12, 's');
    const windows = splitWindows(text, { maxTokens: 16, overlapTokens: 4 });
    assert.deepEqual(
      windows.map((w) => w.text),
      [
        's0 ends here. s1 ends here. s2 ends here. s3 ends here.',
        's3 ends here. s4 ends here. s5 ends here. s6 ends here.',
        's6 ends here. s7 ends here. s8 ends here. s9 ends here.',
        's9 ends here. s10 ends here. s11 ends here.',
      ],
    );
    assert.equal(windows.at(-1)!.end, text.length);
  });

  it('falls back to word runs, then hard cuts, and caps the number of windows', () => {
    assert.deepEqual(spans(splitWindows('word '.repeat(40), { maxTokens: 8, overlapTokens: 0 })), [
      [0, 29],
      [30, 59],
      [60, 89],
      [90, 119],
      [120, 149],
      [150, 179],
      [180, 199],
    ]);
    assert.deepEqual(spans(splitWindows('x'.repeat(100), { maxTokens: 8 })), [
      [0, 32],
      [32, 64],
      [64, 96],
      [96, 100],
    ]);
    assert.equal(splitWindows('x'.repeat(1000), { maxTokens: 8, maxWindows: 3 }).length, 3);
  });

  it('plans windows for many sections with their ordinals', () => {
    const plan = planWindows(['tiny', sentences(12, 's'), 'also tiny'], { maxTokens: 16, overlapTokens: 4 });
    assert.deepEqual(
      plan.map((w) => [w.ordinal, w.window]),
      [
        [0, 0],
        [1, 0],
        [1, 1],
        [1, 2],
        [1, 3],
        [2, 0],
      ],
    );
  });

  it('scores a long section by its best window, above its whole-text vector', async () => {
    const embedder = sharedLocalEmbedder();
    // MiniLM's 160-token windows: 640 characters, cut at paragraph breaks.
    const windows = splitWindows(LONG_SECTION, { maxTokens: embedder.maxInputTokens });
    assert.equal(windows.length, 5);
    assert.equal(windows.at(-1)!.text, RETRIES);
    const [query, whole, ...windowVectors] = await embedder.embed([
      'what happens when a customer payment fails',
      LONG_SECTION,
      ...windows.map((w) => w.text),
    ]);
    const perWindow = windowVectors.map((v) => dot(query, v));
    const best = bestWindowScore(query, windowVectors);
    assert.equal(best, Math.max(...perWindow));
    assert.equal(perWindow.indexOf(best), 4, `window scores ${perWindow}`);
    // The whole text is cut at the model's 254 word pieces: it never reaches the retries.
    assert.ok(best > dot(query, whole) + 0.3, `best window ${best} vs whole text ${dot(query, whole)}`);
  });

  it('folds window hits from a vector index into one best score per section', async () => {
    const embedder = sharedLocalEmbedder();
    const sections = [
      LONG_SECTION,
      'Deploy the frontend with helm: bump the chart version and run the release pipeline.',
    ];
    const plan = planWindows(sections, { maxTokens: embedder.maxInputTokens });
    const vectors = await embedder.embed(plan.map((w) => w.text));
    const index = new ExactIndex(embedder.dimension);
    vectors.forEach((v, label) => index.add(label, v));
    const query = await embedder.embedQuery('invoice retries after a failed charge');
    const hits = index.search(query, plan.length);
    const scores = bestWindowScores(hits, (label) => plan[label]?.ordinal);
    assert.deepEqual([...scores.keys()], [0, 1]);
    const sectionZeroWindows = vectors.filter((_, label) => plan[label].ordinal === 0);
    // The exact index holds int8 codes: its cosines are the float ones to within 0.005.
    assert.ok(Math.abs(scores.get(0)! - bestWindowScore(query, sectionZeroWindows)) < 0.005);
    assert.ok(scores.get(0)! > scores.get(1)!);
    // Unknown labels are skipped.
    assert.deepEqual([...bestWindowScores([{ label: 99, score: 1 }], () => undefined)], []);
  });
});
