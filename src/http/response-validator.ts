// Checks a response against an OpenAPI document (a live one for `sds contract-test`, the runtime
// router's own with response validation on): the operation is found by method and path,
// the status must be declared, required headers present, the media type declared and the body
// valid against the declared schema (Ajv 2020 with formats, `$ref`s resolved inside the document).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import type { OpenApiDocument } from '../contract.ts';

type Node = Record<string, unknown>;
// ajv-formats is CommonJS: imported from ESM, the function is the module's `default` property.
const addFormats = ajvFormats.default;
const DOCUMENT_ID = 'sds-openapi.json';

export interface ResponseCheck {
  /** `operationId`, or undefined when no operation of the contract matches the request. */
  operationId?: string;
  /** `GET /public/v1/projects/{projectId}`, or the concrete path when no operation matches. */
  operation: string;
  status: number;
  /** The parsed JSON body, or the text. */
  body: unknown;
  problems: string[];
}

/** A response as the validator sees it: the request's method and path, and the answer. */
export interface Answer {
  method: string;
  /** The request's path (percent-encoded as sent), without the query. */
  pathname: string;
  status: number;
  /** The media type, lower-case, without parameters. */
  mediaType: string;
  /** The body, parsed when it is JSON. */
  body: unknown;
  /** Whether a body was sent at all. */
  sent: boolean;
  hasHeader: (name: string) => boolean;
}

interface Route {
  template: string;
  pattern: RegExp;
  params: number;
  item: Node;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The path the document's first server puts before its paths, its variables at their defaults: none
 * for the main contract (`http://localhost:3000`), `/runtime/<sourceId>` for a source's own document
 * (`{baseUrl}/runtime/{sourceId}`).
 */
function serverPath(document: OpenApiDocument): string {
  const server = (document as { servers?: { url?: string; variables?: Record<string, { default?: string }> }[] }).servers?.[0];
  if (!server?.url) return '';
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
  try {
    return new URL(url, 'http://localhost').pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

export class ResponseValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly routes: Route[];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema(document as object, DOCUMENT_ID);
    const prefix = serverPath(document);
    this.routes = Object.entries(document.paths)
      .map(([template, item]) => ({
        template,
        item: item as Node,
        params: (template.match(/\{[^}]+\}/g) ?? []).length,
        pattern: new RegExp(`^${escapeRegExp(prefix)}${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`),
      }))
      .sort((a, b) => a.params - b.params);
  }

  /** Follows `$ref`s to components (responses, headers) inside the document. */
  private resolve(node: unknown): Node | undefined {
    let current = node as Node | undefined;
    for (let depth = 0; current && typeof current.$ref === 'string' && depth < 10; depth++) {
      const ref = current.$ref as string;
      if (!ref.startsWith('#/')) return undefined;
      current = ref
        .slice(2)
        .split('/')
        .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<unknown>((at, token) => (at && typeof at === 'object' ? (at as Node)[token] : undefined), this.document) as Node | undefined;
    }
    return current;
  }

  /** A validator for a schema found inline in the document; its local `$ref`s point into the document. */
  private validatorFor(key: string, schema: unknown): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      const rebased = JSON.parse(JSON.stringify(schema), (name, value) =>
        name === '$ref' && typeof value === 'string' && value.startsWith('#') ? `${DOCUMENT_ID}${value}` : value,
      );
      validate = this.ajv.compile(rebased);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  private schemaProblems(key: string, schema: unknown, body: unknown): string[] {
    const validate = this.validatorFor(key, schema);
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 5).map((error) => `body${error.instancePath || ''} ${error.message ?? 'is invalid'}${error.params && 'additionalProperty' in error.params ? ` (${String(error.params.additionalProperty)})` : ''}`);
  }

  /** Checks one response; reads its body (pass a clone when the caller still needs it). */
  async check(method: string, url: URL, response: Response): Promise<ResponseCheck> {
    const text = await response.text();
    let body: unknown = text;
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const json = mediaType.endsWith('json') && !mediaType.endsWith('ndjson');
    if (json && text) {
      try {
        body = JSON.parse(text);
      } catch {
        return { operation: `${method} ${url.pathname}`, status: response.status, body, problems: ['body is not valid JSON'] };
      }
    }
    return this.checkAnswer({ method, pathname: url.pathname, status: response.status, mediaType, body, sent: text.length > 0, hasHeader: (name) => response.headers.has(name) });
  }

  /** Checks an answer whose body is already parsed (the server's own, before it is sent). */
  checkAnswer(answer: Answer): ResponseCheck {
    const { method, pathname, body, mediaType } = answer;
    const json = mediaType.endsWith('json') && !mediaType.endsWith('ndjson');
    const lower = method.toLowerCase();
    const route = this.routes.find((candidate) => candidate.pattern.test(pathname) && candidate.item[lower]);
    if (!route) {
      // Not an operation of the contract: only the catch-all 404 with the error body is acceptable.
      const errorSchema = ((this.document as { components?: { schemas?: Node } }).components?.schemas)?.ErrorBody ? 'ErrorBody' : 'Error';
      const problems = answer.status === 404 ? this.schemaProblems('#unknown-route', { $ref: `#/components/schemas/${errorSchema}` }, body) : [`no operation of the contract matches ${method} ${pathname} (answered ${answer.status})`];
      return { operation: `${method} ${pathname}`, status: answer.status, body, problems };
    }
    const operation = route.item[lower] as Node;
    const name = `${method.toUpperCase()} ${route.template}`;
    const result: ResponseCheck = { operationId: operation.operationId as string, operation: name, status: answer.status, body, problems: [] };
    const responses = (operation.responses ?? {}) as Node;
    const status = String(answer.status);
    const declaredKey = [status, `${status[0]}XX`, 'default'].find((key) => key in responses);
    if (!declaredKey) {
      result.problems.push(`status ${status} is not declared (declared: ${Object.keys(responses).join(', ')})`);
      return result;
    }
    const declared = this.resolve(responses[declaredKey]) ?? {};
    for (const [header, spec] of Object.entries((declared.headers ?? {}) as Node)) {
      if (this.resolve(spec)?.required && !answer.hasHeader(header)) result.problems.push(`required header ${header} is missing`);
    }
    const content = declared.content as Node | undefined;
    if (!content) {
      if (answer.sent) result.problems.push(`status ${status} declares no body but one was sent`);
      return result;
    }
    const media = content[mediaType] as Node | undefined;
    if (!media) {
      result.problems.push(`content type "${mediaType || 'none'}" is not declared for ${status} (declared: ${Object.keys(content).join(', ')})`);
      return result;
    }
    if (json && media.schema) {
      result.problems.push(...this.schemaProblems(`${name} ${declaredKey} ${mediaType}`, media.schema, body));
    }
    return result;
  }
}
