import assert from 'node:assert/strict';
import { analyzeQuery, analyzeWord } from '../../../../server/src/engine/text/analyzer';
import { compoundCandidates, joinCompounds } from '../../../../server/src/engine/text/compounds';

/** The question's terms as `key` or `key(parts)` for a compound; `vocabulary`: words the index holds. */
function terms(text: string, vocabulary: readonly string[]): string[] {
  const known = new Set(vocabulary.map((w) => analyzeWord(w) ?? w));
  return joinCompounds(text, analyzeQuery(text), (t) => known.has(t)).map((t) =>
    t.compound ? `${t.key}(${t.parts.join(',')})` : t.key,
  );
}

describe('engine/text/compounds', () => {
  it('joins a verb and its particle into the word the workspace writes joined', () => {
    assert.deepEqual(terms('roll back an application', ['rollback']), ['rollback(roll,back)', 'applic']);
    assert.deepEqual(terms('set up SSO', ['setup']), ['setup(set,up)', 'sso']);
    // A stop-word particle still joins ("in"), and the compound keeps the one part it has.
    assert.deepEqual(terms('log in with the CLI', ['login']), ['login(log)', 'cli']);
    // Inflected verbs join by their stem; hyphens and spaces between the words are allowed.
    assert.deepEqual(terms('rolling back the release', ['rollback']), ['rollback(roll,back)', 'releas']);
    assert.deepEqual(terms('when a sync times out', ['timeout']), ['sync', 'timeout(time,out)']);
    assert.deepEqual(terms('the fail - over region', ['failover']), ['failov(fail)', 'region']);
  });

  it('leaves the question as it was where the workspace never writes the pair joined, or it is no particle pair', () => {
    assert.deepEqual(terms('roll back an application', []), ['roll', 'back', 'applic']);
    // Two words of a name are not joined, even when identifiers spell them as one.
    assert.deepEqual(terms('rotate the key pair', ['keypair']), ['rotat', 'key', 'pair']);
    assert.deepEqual(terms('deploy with Argo CD', ['argocd']), ['deploy', 'argo', 'cd']);
    // Not across punctuation, nor with an identifier.
    assert.deepEqual(terms('roll. back', ['rollback']), ['roll', 'back']);
    assert.deepEqual(terms('billing-worker back', ['billing-workerback']), ['billing-worker', 'back']);
  });

  it('keeps a particle the question asks for elsewhere, and names what a store must count', () => {
    assert.deepEqual(terms('roll back, then go back', ['rollback']), ['rollback(roll,back)', 'back', 'go']);
    assert.deepEqual(compoundCandidates('how do I roll back, set up or keep logging in'), [
      'rollback',
      'setup',
      'loggingin',
      'login',
    ]);
  });
});
