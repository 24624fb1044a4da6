// Checks a response against an OpenAPI document (a live one for `sds contract-test`, the runtime
// router's own before it is sent, with response validation on): the operation is found by method and
// path, the status must be declared, required headers present and every declared header's value valid
// against its schema, the media type declared and the body valid against the declared schema (Ajv
// 2020 with formats, `$ref`s resolved inside the document); CSV, JSON Lines and event-stream bodies,
// when their text is at hand, are parsed and must be well-formed.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import type { OpenApiDocument } from '../contract.ts';
import { csvProblems, ndjsonProblems, sseProblems } from './body-formats.ts';

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
  /** Names of the headers the answered status declares (as written in the document). */
  declaredHeaders: string[];
  problems: string[];
}

/** An answer to check: a live response's parts, or the server's own before it is sent. */
export interface Answer {
  method: string;
  /** The request's path (percent-encoded as sent), without the query. */
  pathname: string;
  status: number;
  /** The media type, lower-case, without parameters. */
  mediaType: string;
  /** The body, parsed when it is JSON. */
  body: unknown;
  /** The body's text, when it is at hand (a streamed answer's is not). */
  text?: string;
  /** Whether a body was sent at all. */
  sent: boolean;
  /** A header's value, or null without it. */
  header: (name: string) => string | null;
}

interface Route {
  template: string;
  pattern: RegExp;
  params: number;
  item: Node;
}

export class ResponseValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly routes: Route[];
  private readonly compiled = new Map<string, ValidateFunction>();
  /** Event types a `text/event-stream` may carry: the GenerationEvent `type` enum, when the document has it. */
  private readonly eventTypes: string[] | undefined;

  constructor(private readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema(document as object, DOCUMENT_ID);
    // A server URL with a path (`https://host/runtime/{sourceId}`) prefixes every path of the document.
    const prefix = serverPathPrefix(document);
    this.routes = Object.entries(document.paths)
      .map(([template, item]) => ({
        template,
        item: item as Node,
        params: (template.match(/\{[^}]+\}/g) ?? []).length,
        pattern: new RegExp(`^${patternOf(prefix)}${patternOf(template)}$`),
      }))
      // Where two templates match one path (`/runtime/{sourceId}/{table}.{format}` and
      // `/runtime/{sourceId}/{table}` both match `…/posts.csv`), the one with more literal text wins.
      .sort((a, b) => literalLength(b.template) - literalLength(a.template) || a.params - b.params);
    const schemas = (document.components as Node | undefined)?.schemas as Node | undefined;
    const type = ((schemas?.GenerationEvent as Node | undefined)?.properties as Node | undefined)?.type as Node | undefined;
    this.eventTypes = Array.isArray(type?.enum) ? (type.enum as string[]) : undefined;
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

  private schemaProblems(key: string, schema: unknown, body: unknown, what = 'body'): string[] {
    const validate = this.validatorFor(key, schema);
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 5).map((error) => `${what}${error.instancePath || ''} ${error.message ?? 'is invalid'}${error.params && 'additionalProperty' in error.params ? ` (${String(error.params.additionalProperty)})` : ''}`);
  }

  /**
   * A header's value against its schema: headers are text, so an integer schema needs an integer
   * numeral (`X-Total-Count: many` and `Retry-After: 1.5` break it) before the number is validated.
   */
  private headerProblems(key: string, name: string, schema: Node | undefined, value: string): string[] {
    if (!schema) return [];
    const resolved = this.resolve(schema) ?? {};
    const types = ([] as unknown[]).concat(resolved.type ?? []);
    let parsed: unknown = value;
    if (types.includes('integer') || types.includes('number')) {
      const numeral = types.includes('integer') ? /^-?\d+$/ : /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
      if (!numeral.test(value.trim())) return [`header ${name} "${value}" is not ${types.includes('integer') ? 'an integer' : 'a number'}`];
      parsed = Number(value);
    }
    return this.schemaProblems(`${key} header ${name}`, schema, parsed, `header ${name} "${value}"`);
  }

  /** Checks one response; reads its body (pass a clone when the caller still needs it). */
  async check(method: string, url: URL, response: Response): Promise<ResponseCheck> {
    const text = await response.text();
    let body: unknown = text;
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (isJson(mediaType) && text) {
      try {
        body = JSON.parse(text);
      } catch {
        return { operation: `${method} ${url.pathname}`, status: response.status, body, declaredHeaders: [], problems: ['body is not valid JSON'] };
      }
    }
    return this.checkAnswer({ method, pathname: url.pathname, status: response.status, mediaType, body, text, sent: text.length > 0, header: (name) => response.headers.get(name) });
  }

  /** Checks an answer whose body is already parsed (the server's own, before it is sent). */
  checkAnswer(answer: Answer): ResponseCheck {
    const { method, pathname, body, mediaType, text } = answer;
    const lower = method.toLowerCase();
    const route = this.routes.find((candidate) => candidate.pattern.test(pathname) && candidate.item[lower]);
    if (!route) {
      // Not an operation of the contract: only the catch-all 404 with the error body is acceptable.
      const errorSchema = ((this.document as { components?: { schemas?: Node } }).components?.schemas)?.ErrorBody ? 'ErrorBody' : 'Error';
      const problems = answer.status === 404 ? this.schemaProblems('#unknown-route', { $ref: `#/components/schemas/${errorSchema}` }, body) : [`no operation of the contract matches ${method} ${pathname} (answered ${answer.status})`];
      return { operation: `${method} ${pathname}`, status: answer.status, body, declaredHeaders: [], problems };
    }
    const operation = route.item[lower] as Node;
    const name = `${method.toUpperCase()} ${route.template}`;
    const result: ResponseCheck = { operationId: operation.operationId as string, operation: name, status: answer.status, body, declaredHeaders: [], problems: [] };
    const responses = (operation.responses ?? {}) as Node;
    const status = String(answer.status);
    const declaredKey = [status, `${status[0]}XX`, 'default'].find((key) => key in responses);
    if (!declaredKey) {
      result.problems.push(`status ${status} is not declared (declared: ${Object.keys(responses).join(', ')})`);
      return result;
    }
    const declared = this.resolve(responses[declaredKey]) ?? {};
    for (const [header, spec] of Object.entries((declared.headers ?? {}) as Node)) {
      result.declaredHeaders.push(header);
      const resolved = this.resolve(spec);
      const value = answer.header(header);
      if (value === null) {
        if (resolved?.required) result.problems.push(`required header ${header} is missing`);
        continue;
      }
      result.problems.push(...this.headerProblems(`${name} ${declaredKey}`, header, resolved?.schema as Node | undefined, value));
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
    if (mediaType === 'application/x-ndjson') {
      if (text !== undefined) result.problems.push(...ndjsonProblems(text));
    } else if (isJson(mediaType) && media.schema) {
      result.problems.push(...this.schemaProblems(`${name} ${declaredKey} ${mediaType}`, media.schema, body));
    }
    if (mediaType === 'text/csv' && text !== undefined) result.problems.push(...csvProblems(text));
    if (mediaType === 'text/event-stream' && text !== undefined) result.problems.push(...sseProblems(text, this.eventTypes));
    return result;
  }
}

/** `application/json` and `…+json`; JSON Lines (`application/x-ndjson`) is many JSON texts, not one. */
function isJson(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/**
 * The path of the document's first server URL ('' for none or `/`): a variable whose default is a URL's
 * start (`{baseUrl}`, `http://localhost:3000`) takes it, others (`{sourceId}`) stay templates.
 */
function serverPathPrefix(document: OpenApiDocument): string {
  const server = (document.servers as { url?: string; variables?: Record<string, { default?: string }> }[] | undefined)?.[0];
  if (!server?.url) return '';
  const url = server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const value = server.variables?.[name]?.default;
    return value !== undefined && value.includes('://') ? value : whole;
  });
  const path = url.replace(/^[^:/]*:\/\/[^/]*/, '');
  return path === '/' ? '' : path.replace(/\/$/, '');
}

/** The characters of a path template outside its `{parameters}`. */
function literalLength(template: string): number {
  return template.replace(/\{[^}]+\}/g, '').length;
}

/** A path template as a regular expression source: each `{name}` matches one segment. */
function patternOf(template: string): string {
  return template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+');
}
