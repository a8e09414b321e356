/**
 * The OpenAPI 3.1 description of the REST API (`GET /openapi.json`), generated from the tools' own
 * zod schemas, so it says what the endpoints take and answer however the tools change: each
 * endpoint's query parameters and JSON body are the tool's input (plus the API's own `format` and
 * its aliases, `budget`), its JSON answer the tool's output schema (JSON Schema 2020-12, OpenAPI
 * 3.1's dialect), every object closed as the MCP output schemas are.
 */
import { CONTRACT_VERSION } from '../engine';
import { inputJsonSchema, type JsonSchema, outputJsonSchema2020 } from '../tools/outputContract';
import { OPENAPI_PATH, REST_ENDPOINTS, type RestEndpoint } from './restEndpoints';

const FORMAT_PARAMETER = {
  type: 'string',
  enum: ['markdown', 'json'],
  description:
    'The answer’s format; when left out, the Accept header decides (application/json: JSON; anything else: Markdown).',
};

/** A schema as a component: without its own `$schema` (the document's dialect applies). */
function component(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/** `get_context` -> `GetContext`. */
function pascal(name: string): string {
  return name.replace(/(^|_)([a-z])/g, (_, _sep: string, c: string) => c.toUpperCase());
}

function errorResponse(description: string) {
  return {
    description,
    content: {
      'text/plain': { schema: { type: 'string', description: 'error: <one line saying why>' } },
      'application/json': { schema: { $ref: '#/components/schemas/Error' } },
    },
  };
}

/** The tool's input with the API's own fields: `format`, and each alias beside the argument it names. */
function requestSchema(endpoint: RestEndpoint): JsonSchema {
  const input = component(inputJsonSchema(endpoint.tool, 'draft-2020-12'));
  const properties = { ...(input.properties as Record<string, JsonSchema>) };
  for (const [alias, field] of Object.entries(endpoint.aliases))
    properties[alias] = {
      ...properties[field],
      description: `The same as ${field}: ${properties[field]?.description ?? ''}`,
    };
  properties.format = FORMAT_PARAMETER;
  return { ...input, properties };
}

function operations(endpoint: RestEndpoint) {
  const name = pascal(endpoint.tool.name);
  const request = requestSchema(endpoint);
  const required = new Set((request.required as string[] | undefined) ?? []);
  const parameters = Object.entries(request.properties as Record<string, JsonSchema>).map(([field, schema]) => ({
    name: field,
    in: 'query',
    required: required.has(field),
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    schema,
    // Lists as `tags=a,b` (or the name repeated).
    ...(schema.type === 'array' ? { style: 'form', explode: false } : {}),
  }));
  const responses = {
    '200': {
      description: `${endpoint.tool.title}: Markdown by default, JSON with Accept: application/json.`,
      content: {
        'text/markdown': { schema: { type: 'string' } },
        'application/json': { schema: { $ref: `#/components/schemas/${name}Answer` } },
      },
    },
    '400': errorResponse('An argument the tool refuses, named with what it accepts.'),
    '401': { description: 'No bearer token, or not one this server accepts.' },
    '403': { description: 'A Host or Origin header this server does not accept.' },
    '406': errorResponse('An Accept header naming neither text/markdown nor application/json.'),
  };
  return {
    get: {
      operationId: `${endpoint.tool.name}_get`,
      summary: endpoint.summary,
      parameters,
      responses,
    },
    post: {
      operationId: `${endpoint.tool.name}_post`,
      summary: endpoint.summary,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}Request` } } },
      },
      responses: {
        ...responses,
        '413': errorResponse('A body past 1 MiB.'),
        '415': errorResponse('A body that is not sent as application/json.'),
      },
    },
  };
}

/** The description served at `/openapi.json`, its server at `baseUrl` (`http://127.0.0.1:PORT`). */
export function openApiDocument(baseUrl: string, version: string): Record<string, unknown> {
  const schemas: Record<string, JsonSchema> = {
    Error: {
      type: 'object',
      properties: { error: { type: 'string' } },
      required: ['error'],
      additionalProperties: false,
    },
  };
  const paths: Record<string, unknown> = {};
  for (const endpoint of REST_ENDPOINTS) {
    const name = pascal(endpoint.tool.name);
    schemas[`${name}Request`] = requestSchema(endpoint);
    schemas[`${name}Answer`] = component(outputJsonSchema2020(endpoint.tool));
    paths[endpoint.path] = operations(endpoint);
  }
  paths[OPENAPI_PATH] = {
    get: {
      operationId: 'openapi',
      summary: 'This description.',
      responses: { '200': { description: 'The OpenAPI 3.1 description.', content: { 'application/json': {} } } },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Workspace Context REST API',
      version,
      description: `get_context and workspace_context over HTTP, beside the MCP endpoint (/mcp) of wsctx serve, with the same bearer token and folder limits. workspace_context's ranking contract: ${CONTRACT_VERSION}.`,
    },
    servers: [{ url: baseUrl }],
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
  };
}
