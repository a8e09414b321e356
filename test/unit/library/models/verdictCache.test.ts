import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { normalizeTask, VERDICT_TTL_MS, VerdictCache } from '../../../../server/src/library/models/verdictCache';
import { removeTempDirs, tempDir } from '../../../helpers/tempWorkspace';

const DAY = 24 * 60 * 60 * 1000;

describe('verdict cache: remembered after two same answers, until a page changes or two weeks pass', () => {
  let now = Date.parse('2026-06-01T09:00:00Z');
  const clock = () => new Date(now);
  const key = { task: 'Cold email to a CFO switching from Avalara', question: 'different', subject: 'section-taxjar' };
  const pages = { taxjar: 'digest-1' };
  after(removeTempDirs);

  it('remembers a verdict only once the judge gave the same answer twice for the very same task', () => {
    now = Date.parse('2026-06-01T09:00:00Z');
    const cache = new VerdictCache({ clock });
    cache.record(key, { yes: true, probability: 0.9 }, pages);
    assert.equal(cache.lookup(key, pages), undefined, 'one answer is not enough');
    cache.record(
      { ...key, task: '  cold EMAIL to a cfo   switching from avalara ' },
      { yes: true, probability: 0.95 },
      pages,
    );
    assert.deepEqual(cache.lookup(key, pages), { yes: true, probability: 0.95 });
    assert.equal(cache.get(key)!.approvals, 2);
    assert.equal(
      cache.lookup({ ...key, task: 'cold email to a CFO switching from TaxJar' }, pages),
      undefined,
      'another task is another question',
    );
    assert.equal(normalizeTask('  A   b\nC '), 'a b c');
  });

  it('forgets when a page involved changes, and a different answer starts the count again', () => {
    now = Date.parse('2026-06-01T09:00:00Z');
    const cache = new VerdictCache({ clock });
    cache.record(key, { yes: true, probability: 0.9 }, pages);
    cache.record(key, { yes: true, probability: 0.9 }, pages);
    assert.equal(cache.lookup(key, { taxjar: 'digest-2' }), undefined, 'republished page');
    assert.equal(cache.lookup(key, { taxjar: 'digest-1', other: 'x' }), undefined, 'another set of pages');
    cache.record(key, { yes: false, probability: 0.2 }, pages);
    assert.equal(cache.get(key)!.approvals, 1);
    assert.equal(cache.lookup(key, pages), undefined);
  });

  it('lapses two weeks after the last confirmation, and a confirmation after that remembers it again', () => {
    now = Date.parse('2026-06-01T09:00:00Z');
    const cache = new VerdictCache({ clock });
    cache.record(key, { yes: true, probability: 0.9 }, pages);
    cache.record(key, { yes: true, probability: 0.9 }, pages);
    now += VERDICT_TTL_MS;
    assert.deepEqual(cache.lookup(key, pages), { yes: true, probability: 0.9 }, 'exactly two weeks: still remembered');
    now += 1;
    assert.equal(cache.lookup(key, pages), undefined, 'past two weeks without confirmation');
    cache.record(key, { yes: true, probability: 0.88 }, pages);
    assert.deepEqual(cache.lookup(key, pages), { yes: true, probability: 0.88 });
    assert.equal(cache.get(key)!.confirmedAt, new Date(now).toISOString());
    now += 13 * DAY;
    assert.ok(cache.lookup(key, pages));
  });

  it('keeps its verdicts in a file across restarts', () => {
    now = Date.parse('2026-06-01T09:00:00Z');
    const file = path.join(tempDir('verdicts'), 'sub', 'verdicts.json');
    const cache = new VerdictCache({ file, clock });
    cache.record(key, { yes: false, probability: 0.1 }, pages);
    cache.record(key, { yes: false, probability: 0.05 }, pages);
    cache.flush();
    const again = new VerdictCache({ file, clock });
    assert.deepEqual(again.lookup(key, pages), { yes: false, probability: 0.05 });
    assert.equal(again.size, 1);
    fs.writeFileSync(file, '{not json');
    const errors: string[] = [];
    const broken = new VerdictCache({ file, clock, onError: (e) => errors.push(e.message) });
    assert.equal(broken.size, 0);
    assert.match(errors[0], /is unreadable and was ignored/);
  });
});
