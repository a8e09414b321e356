import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { porterStem } from '../../../../server/src/engine/text/porter';

const VOCAB = join(__dirname, 'porterVocab');

function lines(file: string): string[] {
  return readFileSync(join(VOCAB, file), 'utf8').split('\n').filter((line) => line.length > 0);
}

describe('porterStem', () => {
  it("reproduces Porter's published output for his whole vocabulary", () => {
    const words = lines('voc.txt');
    const stems = lines('output.txt');
    assert.equal(words.length, 23531);
    assert.equal(stems.length, words.length);
    const mismatches: string[] = [];
    for (let i = 0; i < words.length; i++) {
      const got = porterStem(words[i]);
      if (got !== stems[i]) mismatches.push(`${words[i]}: got '${got}', expected '${stems[i]}'`);
    }
    assert.deepEqual(mismatches.slice(0, 20), [], `${mismatches.length} mismatches`);
  });

  it('is the original algorithm, not Porter2 (departures and short words as published)', () => {
    assert.deepEqual(
      ['generously', 'humbly', 'is', 'apology', 'conformabli', 'retries', 'workers', 'billing'].map(porterStem),
      ['gener', 'humbl', 'is', 'apolog', 'conform', 'retri', 'worker', 'bill'],
    );
  });

  it('answers the same from its cache', () => {
    assert.equal(porterStem('relational'), 'relat');
    assert.equal(porterStem('relational'), 'relat');
  });
});
