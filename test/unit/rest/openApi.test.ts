/**
 * The REST API's description and how it reads a request: the OpenAPI document validates against
 * the OpenAPI Initiative's own JSON Schema of 3.1 documents (test/fixtures/openapi-3.1-schema),
 * each schema in it is valid JSON Schema 2020-12 and says what the tool says (every argument, the
 * alias, closed objects), and query strings and Accept headers are read as docs/rest.md says.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { openApiDocument } from '../../../server/src/rest/openApi';
import { answerFormat, queryInput, RestRefusal } from '../../../server/src/rest/restInput';
import { inputJsonSchema } from '../../../server/src/tools/outputContract';
import { findTool } from '../../../server/src/tools/registry';

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: unknown;
};

const META = JSON.parse(
  fs.readFileSync(path.join(__dirname, '../../fixtures/openapi-3.1-schema/schema.json'), 'utf8'),
) as object;

describe('the REST API description (OpenAPI 3.1)', () => {
  const document = openApiDocument('http://127.0.0.1:4321', '9.9.9') as {
    paths: Record<
      string,
      { get?: { parameters: { name: string; required: boolean; style?: string; explode?: boolean }[] } }
    >;
    components: { schemas: Record<string, Schema> };
  };

  it('validates against the OpenAPI Initiative’s schema of 3.1 documents', () => {
    const validate = new Ajv2020({ strict: false, allErrors: true, validateFormats: false }).compile(META);
    assert.ok(validate(document), JSON.stringify(validate.errors?.slice(0, 5), null, 2));
    // And the check can fail: a parameter that does not say where it goes, another version.
    assert.equal(validate({ ...document, paths: { '/context': { get: { parameters: [{ name: 'task' }] } } } }), false);
    assert.equal(validate({ ...document, openapi: '3.0.3' }), false);
  });

  it('holds only valid JSON Schema 2020-12, every object closed', () => {
    const ajv = new Ajv2020({ strict: false });
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      assert.ok(ajv.validateSchema(schema), `${name}: ${JSON.stringify(ajv.errors)}`);
      assert.equal(schema.additionalProperties, false, name);
    }
  });

  it('describes every argument of the tools, the budget alias and the answer format', () => {
    const context = document.components.schemas.GetContextRequest;
    const tool = inputJsonSchema(findTool('get_context')!, 'draft-2020-12') as Schema;
    assert.deepEqual(Object.keys(context.properties!), [...Object.keys(tool.properties!), 'budget']);
    // task or changes (a change alone is a request): neither is required on its own, and the
    // task's description says so (the tool refuses a request with neither, naming both).
    assert.equal(context.required, undefined);
    assert.match(JSON.stringify(context.properties!.task), /give task or changes/);
    const parameters = document.paths['/context'].get!.parameters;
    assert.deepEqual(
      parameters.map((p) => p.name),
      ['task', 'changes', 'max_tokens', 'pack', 'tags', 'folder', 'format', 'budget'],
    );
    assert.deepEqual(
      parameters.find((p) => p.name === 'tags'),
      { ...parameters.find((p) => p.name === 'tags'), required: false, style: 'form', explode: false },
    );
    const question = document.paths['/workspace_context'].get!.parameters;
    assert.deepEqual(
      question.map((p) => [p.name, p.required]),
      [
        ['workspace', false],
        ['question', true],
        ['limit', false],
        ['asOf', false],
        ['sourceKinds', false],
        ['format', false],
      ],
    );
  });
});

describe('a REST request read as a tool’s input', () => {
  const schema = inputJsonSchema(findTool('get_context')!, 'draft-7');

  it('types query values by the tool’s schema; lists as a,b or repeated; aliases to the tool’s names', () => {
    assert.deepEqual(
      queryInput(new URLSearchParams('task=roll+back&budget=4000&tags=deploy,%20billing&tags=ops&pack=p'), schema, {
        budget: 'max_tokens',
      }),
      { task: 'roll back', max_tokens: 4000, tags: ['deploy', 'billing', 'ops'], pack: 'p' },
    );
    // What is not a number stays as sent, for the tool to refuse by name.
    assert.deepEqual(queryInput(new URLSearchParams('task=x&max_tokens=lots'), schema, {}), {
      task: 'x',
      max_tokens: 'lots',
    });
    assert.throws(
      () => queryInput(new URLSearchParams('budget=1000&max_tokens=2000'), schema, { budget: 'max_tokens' }),
      (e: Error) => e instanceof RestRefusal && e.status === 400 && /given twice/.test(e.message),
    );
  });

  it('answers JSON when Accept prefers it or format says so, Markdown otherwise', () => {
    assert.equal(answerFormat(undefined, undefined), 'markdown');
    assert.equal(answerFormat(undefined, '*/*'), 'markdown');
    assert.equal(answerFormat(undefined, 'application/json'), 'json');
    assert.equal(answerFormat(undefined, 'text/markdown;q=0.5, application/json'), 'json');
    assert.equal(answerFormat(undefined, 'application/json;q=0.2, text/markdown'), 'markdown');
    assert.equal(answerFormat('json', 'text/markdown'), 'json');
    assert.throws(
      () => answerFormat(undefined, 'image/png'),
      (e: Error) => e instanceof RestRefusal && e.status === 406,
    );
    assert.throws(
      () => answerFormat('xml', undefined),
      (e: Error) => e instanceof RestRefusal && e.status === 400,
    );
  });
});
