import assert from 'node:assert/strict';
import {
  cardPrompt,
  conflictPrompt,
  cut,
  JUDGE_MATERIAL_CHARS,
  JUDGE_QUESTIONS,
  judgePrompt,
  jsonObject,
  parseCard,
  parseConflicts,
  parseJudgeAnswers,
  parsePlan,
  parseQuestions,
  planPrompt,
  sectionQuestionsPrompt,
} from '../../../../server/src/library/models/prompts';

describe('prompts: every model-backed step, its prompt and its parser', () => {
  describe('planner', () => {
    it('asks for names, deliverable, searches and constraints as JSON, listing the names the workspace knows', () => {
      const [system, user] = planPrompt('cold email to a CFO switching from Avalara', [
        { text: 'Avalara', kind: 'competitor' },
      ]);
      assert.equal(system.role, 'system');
      assert.match(system.content, /^You take apart a task an agent is about to do/);
      assert.match(
        system.content,
        /"names": \[\{"text": "<a name exactly as the task writes it>", "kind": "<competitor\|product\|persona\|market\|component\|api\|system\|group\|other>"\}\]/,
      );
      assert.match(system.content, /Only list names the task itself contains\./);
      assert.equal(
        user.content,
        'Task: cold email to a CFO switching from Avalara\n\nNames this workspace knows (name: kind):\n- Avalara: competitor',
      );
    });

    it('keeps only names the task contains, at most three searches, and reads JSON wrapped in prose or a fence', () => {
      const answer =
        'Here is the plan:\n```json\n{"names":[{"text":"Avalara","kind":"Competitor"},{"text":"Vertex","kind":"competitor"},{"text":"avalara","kind":"competitor"}],"deliverable":"cold email","searches":["cold email rules","CFO persona","Avalara switching","extra"],"constraints":["under 120 words"]}\n```';
      assert.deepEqual(parsePlan(answer, 'cold email to a CFO switching from Avalara, under 120 words'), {
        names: [{ text: 'Avalara', kind: 'competitor' }],
        deliverable: 'cold email',
        searches: ['cold email rules', 'CFO persona', 'Avalara switching'],
        constraints: ['under 120 words'],
      });
      assert.equal(parsePlan('no JSON here', 'x'), null);
      assert.deepEqual(parsePlan('{"names": "oops"}', 'x'), { names: [], searches: [], constraints: [] });
    });
  });

  describe('judge', () => {
    it('puts every item in one prompt with its question and material, cut to the limit', () => {
      const long = 'word '.repeat(400);
      const [system, user] = judgePrompt('the task', [
        { id: 'q1', question: JUDGE_QUESTIONS.use, material: 'short material' },
        { id: 'q2', question: JUDGE_QUESTIONS.different, material: long },
      ]);
      assert.match(system.content, /give the probability from 0 to 1 that the answer to its question is yes\./);
      assert.match(system.content, /e\.g\. \{"q1": 0\.93, "q2": 0\.08\}, and nothing else\.$/);
      const blocks = user.content.split('\n\n');
      assert.equal(blocks[0], 'Task: the task');
      assert.equal(blocks[1], '[q1] Would someone doing this task use this material?\nshort material');
      assert.ok(
        blocks[2].startsWith(
          '[q2] Is this material specifically about a different competitor, product, market or audience than the task names?\nword word',
        ),
      );
      assert.ok(blocks[2].endsWith('…'));
      assert.ok(blocks[2].length <= JUDGE_MATERIAL_CHARS + JUDGE_QUESTIONS.different.length + 6);
    });

    it('reads probabilities, percentages, yes/no words and {answer, probability} objects', () => {
      const text =
        '{"q1": 0.93, "q2": "no", "q3": 85, "q4": {"answer": "no", "probability": 0.8}, "q5": {"answer": "yes"}, "q6": 7000}';
      assert.deepEqual(parseJudgeAnswers(text, ['q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7']), [
        { id: 'q1', yes: true, probability: 0.93 },
        { id: 'q2', yes: false, probability: 0 },
        { id: 'q3', yes: true, probability: 0.85 },
        { id: 'q4', yes: false, probability: 1 - 0.8 },
        { id: 'q5', yes: true, probability: 1 },
      ]);
      assert.deepEqual(parseJudgeAnswers('{"answers": {"p1": 0.2}}', ['p1']), [
        { id: 'p1', yes: false, probability: 0.2 },
      ]);
      assert.equal(parseJudgeAnswers('{"other": 1}', ['q1']), null);
      assert.equal(parseJudgeAnswers('yes', ['q1']), null);
    });
  });

  describe('cards and questions', () => {
    it('asks a page for Good-for phrasings and whether to read it whole; a folder only for phrasings', () => {
      const [system, user] = cardPrompt({
        what: 'page',
        title: 'Voice and tone',
        type: 'voice',
        summary: 'How we sound.',
        outline: ['Greetings'],
        text: 'Plain words.',
      });
      assert.match(
        system.content,
        /^You write the "Good for" phrasings of a page in a team's library: 3 to 5 short phrasings/,
      );
      assert.match(system.content, /\{"good_for": \["\.\.\."\],\n "read_whole": </);
      assert.equal(
        user.content,
        'Page: Voice and tone\nType: voice\nSummary: How we sound.\nHeadings: Greetings\n\nPlain words.',
      );
      const [folderSystem, folderUser] = cardPrompt({
        what: 'folder',
        title: '.context/voice',
        outline: ['Voice and tone', 'Signatures'],
      });
      assert.doesNotMatch(folderSystem.content, /read_whole/);
      assert.equal(folderUser.content, 'Folder: .context/voice\nPages: Voice and tone; Signatures');
    });

    it('keeps at most five distinct phrasings and the read-whole answer; nothing readable is null', () => {
      assert.deepEqual(
        parseCard(
          '{"good_for": ["writing a reply", "Writing a reply", "  drafting   a notice ", 3, "a", "b", "c", "d"], "read_whole": true}',
        ),
        {
          goodFor: ['writing a reply', 'drafting a notice', 'a', 'b', 'c'],
          readWhole: true,
        },
      );
      assert.equal(parseCard('{"good_for": []}'), null);
    });

    it('asks a section for the questions it answers and keeps at most four', () => {
      const [, user] = sectionQuestionsPrompt('Refund policy', ['Refund policy', 'Refund window'], 'Within 14 days.');
      assert.equal(user.content, 'Page: Refund policy\nSection: Refund policy > Refund window\n\nWithin 14 days.');
      assert.deepEqual(
        parseQuestions('{"questions": ["what is the refund window?", "how long can I refund?", "q3?", "q4?", "q5?"]}'),
        ['what is the refund window?', 'how long can I refund?', 'q3?', 'q4?'],
      );
      assert.equal(parseQuestions('{"questions": "none"}'), null);
    });
  });

  describe('conflict check', () => {
    it('shows both passages with their places and keeps only quotes that are really in them', () => {
      const a = {
        page: 'Refund policy',
        heading: 'Refund window',
        text: 'Merchants can refund within **14 days** of capture.',
      };
      const b = {
        page: 'Issuing refunds',
        heading: 'Refund window',
        text: 'A charge can be refunded up to 30 days after capture.',
      };
      const [system, user] = conflictPrompt(a, b);
      assert.match(system.content, /Quote the exact wording from each passage\./);
      assert.equal(
        user.content,
        `A (Refund policy > Refund window):\n${a.text}\n\nB (Issuing refunds > Refund window):\n${b.text}`,
      );
      const answer = JSON.stringify({
        conflicts: [
          { a: 'refund within 14 days', b: 'up to 30 days after capture', what: 'refund window' },
          { a: 'within 7 days', b: 'up to 30 days', what: 'made up' },
        ],
      });
      assert.deepEqual(parseConflicts(answer, a.text, b.text), [
        { a: 'refund within 14 days', b: 'up to 30 days after capture', what: 'refund window' },
      ]);
      assert.deepEqual(parseConflicts('{"conflicts": []}', a.text, b.text), []);
      assert.equal(parseConflicts('{}', a.text, b.text), null);
    });
  });

  it('finds the JSON object in an answer and cuts text at a word', () => {
    assert.deepEqual(jsonObject('Sure! {"a": {"b": 1}} hope that helps'), { a: { b: 1 } });
    assert.equal(jsonObject('[1, 2]'), null);
    assert.equal(cut('one two three four', 10), 'one two…');
    assert.equal(cut('short', 10), 'short');
  });
});
