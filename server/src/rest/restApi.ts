/**
 * The REST API (docs/rest.md): get_context and workspace_context over plain HTTP, on the same
 * server as MCP (`wsctx serve`), behind the same gates (Host, Origin, bearer token) and answered
 * with the token's own services, so a token limited to some folders reads only those.
 *
 * - `GET /context?task=...&budget=...&pack=...&tags=...&folder=...` and `POST /context` with the
 *   tool's arguments as a JSON body: the bundle as Markdown by default, or with
 *   `Accept: application/json` every page with its reason (rule, pinned, recipe, use, link,
 *   folder, search, entity) and each searched section's similarity.
 * - `GET|POST /workspace_context?question=...`: the ranked passages, likewise.
 * - `GET /openapi.json`: the OpenAPI 3.1 description, generated from the tools' own schemas.
 *
 * A request's arguments pass through to the tool as they are (restInput.ts): an argument the tool
 * gains is taken here with no change; a wrong one is refused with the tool's own message (400).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InputError } from '../engine';
import type { Services } from '../services/services';
import { callTool } from '../tools/callTool';
import { inputJsonSchema } from '../tools/outputContract';
import { openApiDocument } from './openApi';
import { OPENAPI_PATH, REST_ENDPOINTS } from './restEndpoints';
import { answerFormat, bodyInput, MEDIA_TYPES, queryInput, RestRefusal } from './restInput';

/** The routes `wsctx serve` adds to its HTTP server (mcp/http.ts `HttpRoutes`). */
export function restRoutes(options: { version: string }): {
  serves(pathname: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse, url: URL, services: Services): Promise<void>;
} {
  const paths = new Set([...REST_ENDPOINTS.map((e) => e.path), OPENAPI_PATH]);
  return {
    serves: (pathname) => paths.has(pathname),
    handle: (req, res, url, services) => answer(req, res, url, services, options.version),
  };
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  services: Services,
  version: string,
): Promise<void> {
  const jsonErrors = (req.headers.accept ?? '').includes('application/json');
  try {
    if (url.pathname === OPENAPI_PATH) {
      if (req.method !== 'GET') throw new RestRefusal(405, `${OPENAPI_PATH} answers GET`, { Allow: 'GET' });
      send(
        res,
        200,
        MEDIA_TYPES.json,
        `${JSON.stringify(openApiDocument(`http://${req.headers.host}`, version), null, 2)}\n`,
      );
      return;
    }
    const endpoint = REST_ENDPOINTS.find((e) => e.path === url.pathname)!;
    if (req.method !== 'GET' && req.method !== 'POST')
      throw new RestRefusal(405, `${endpoint.path} answers GET (arguments in the query) and POST (a JSON body)`, {
        Allow: 'GET, POST',
      });
    const schema = inputJsonSchema(endpoint.tool, 'draft-7');
    const { format: asked, ...input } =
      req.method === 'GET'
        ? queryInput(url.searchParams, schema, endpoint.aliases)
        : await bodyInput(req, endpoint.aliases);
    const format = answerFormat(asked, req.headers.accept);
    // A fresh session per request: the API is stateless, so a request answers as a first one does.
    const output = await callTool(services, endpoint.tool, endpoint.inputFor(input, format), {
      sessionId: `rest-${randomUUID()}`,
    });
    if (format === 'json') send(res, 200, MEDIA_TYPES.json, `${JSON.stringify(endpoint.json(output))}\n`);
    else send(res, 200, MEDIA_TYPES.markdown, `${endpoint.tool.renderText(output)}\n`);
  } catch (error) {
    if (error instanceof RestRefusal) return refuse(res, error.status, error.message, jsonErrors, error.headers);
    if (error instanceof InputError) return refuse(res, 400, restWords(error.message, url.pathname), jsonErrors);
    throw error;
  }
}

/** A tool's refusal in the API's words: the argument `budget` where the caller may have written it. */
function restWords(message: string, pathname: string): string {
  return pathname === '/context' ? message.replace(/\bmax_tokens: /, 'max_tokens (budget): ') : message;
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
  res.end(body);
}

/** A refusal as plain text (`error: ...`), or as `{"error": "..."}` to a caller that asked for JSON. */
function refuse(
  res: ServerResponse,
  status: number,
  message: string,
  json: boolean,
  headers: Record<string, string> = {},
): void {
  if (json) send(res, status, MEDIA_TYPES.json, `${JSON.stringify({ error: message })}\n`, headers);
  else send(res, status, 'text/plain; charset=utf-8', `error: ${message}\n`, headers);
}
