import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { porterStem } from '../../../../server/src/engine/text/porter';
import { porter2Stem } from '../../../../server/src/engine/text/porter2';
import { analyzeQuery, analyzeText } from '../../../../server/src/engine/text/analyzer';

const VOCAB = join(__dirname, '../../../fixtures/snowball-english-porter2');

function lines(file: string): string[] {
  return readFileSync(join(VOCAB, file), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0);
}

describe('Porter2 stemmer', () => {
  it("reproduces Snowball's published English output for its whole vocabulary", () => {
    const words = lines('voc.txt');
    const stems = lines('output.txt');
    assert.equal(words.length, 42649);
    assert.equal(stems.length, words.length);
    const mismatches: string[] = [];
    for (let i = 0; i < words.length; i++) {
      const got = porter2Stem(words[i]);
      if (got !== stems[i]) mismatches.push(`${words[i]}: got '${got}', expected '${stems[i]}'`);
    }
    assert.deepEqual(mismatches.slice(0, 20), [], `${mismatches.length} mismatches`);
  });

  it("makes the contract's examples one word (docs/ARCHITECTURE.md): deploy / deploying / deployed / deployment, rotating / rotate", () => {
    assert.deepEqual(['deploy', 'deploying', 'deployed', 'deployment', 'deploys'].map(porterStem), [
      'deploy',
      'deploy',
      'deploy',
      'deploy',
      'deploy',
    ]);
    assert.equal(porterStem('rotating'), porterStem('rotate'));
    assert.deepEqual(
      analyzeQuery('how to deploy').map((t) => t.key),
      ['deploy'],
    );
    assert.ok(analyzeText('How deployment works').includes('deploy'));
    assert.ok(analyzeText('there is nothing to rotate by hand').includes(analyzeQuery('rotating secrets')[0].key));
  });

  it('is Porter2, not the 1980 algorithm (generously, a final y after a vowel)', () => {
    assert.deepEqual(['generously', 'retries', 'workers', 'billing', 'played'].map(porterStem), [
      'generous',
      'retri',
      'worker',
      'bill',
      'play',
    ]);
  });

  it('answers the same from its cache', () => {
    assert.equal(porterStem('relational'), 'relat');
    assert.equal(porterStem('relational'), 'relat');
  });
});
