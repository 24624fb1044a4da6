// The contract's runtime query and exports say what the runtime does (issue 28, items 1 and 3): the
// `where` schema has the runtime's operators with the operands they read, and each operation's
// `limit` and answers are the ones it has.
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/contract.ts';
import { MAX_LIMIT } from '../../src/runtime/plan.ts';
import { FILTER_OPERATORS, OPERATOR_NAMES } from '../../src/runtime/operators.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Node = Record<string, any>;
const document = openApiDocument() as unknown as Node;
const resolve = (node: Node): Node => (typeof node.$ref === 'string' ? resolve(node.$ref.slice(2).split('/').reduce((at: Node, key: string) => at[key], document)) : node);
const parameters = (operation: Node) => new Map((operation.parameters as Node[]).map(resolve).map((parameter) => [parameter.name as string, parameter]));

const list = document.paths['/runtime/{sourceId}/{table}'].get as Node;
const exported = document.paths['/runtime/{sourceId}/{table}.{format}'].get as Node;

describe('where', () => {
  it('is a string holding JSON, on listRows and exportRows', () => {
    for (const operation of [list, exported]) {
      expect(parameters(operation).get('where')).toMatchObject({ in: 'query', schema: { type: 'string', contentMediaType: 'application/json', contentSchema: { $ref: '#/components/schemas/RuntimeWhere' } } });
    }
  });

  it("has the runtime's operators, each with the operand it reads", () => {
    const condition = document.components.schemas.RuntimeWhereCondition as Node;
    expect(Object.keys(condition.properties)).toEqual(OPERATOR_NAMES);
    for (const operator of OPERATOR_NAMES) {
      const spec = FILTER_OPERATORS[operator];
      const expected = spec.list ? { $ref: '#/components/schemas/RuntimeWhereValues' } : spec.operand === 'boolean' ? { type: 'boolean' } : spec.operand === 'text' ? { type: 'string' } : { $ref: '#/components/schemas/RuntimeWhereValue' };
      expect(condition.properties[operator], operator).toEqual(expected);
    }
  });
});

describe('limits and answers', () => {
  it("listRows pages up to the runtime's maximum; exportRows has no maximum", () => {
    expect(parameters(list).get('limit')!.schema.maximum).toBe(MAX_LIMIT);
    expect(parameters(exported).get('limit')!.schema).not.toHaveProperty('maximum');
  });

  it('exportRows answers text only, takes no populate, and its path format names the formats it serves', () => {
    const content = exported.responses['200'].content as Node;
    expect(Object.keys(content)).toEqual(['text/csv', 'application/x-ndjson']);
    for (const media of Object.values(content)) expect((media as Node).schema.type).toBe('string');
    expect(parameters(exported).has('populate')).toBe(false);
    const format = (document.paths['/runtime/{sourceId}/{table}.{format}'].parameters as Node[]).map(resolve).find((parameter) => parameter.name === 'format')!;
    expect(format).toMatchObject({ in: 'path', required: true, schema: { enum: ['csv', 'jsonl'] } });
  });

  it("points listRows' readers to each source's own document", () => {
    expect(list.description).toContain('/public/v1/projects/{projectId}/sources/{sourceId}/openapi.json');
    expect(exported.description).toContain('/public/v1/projects/{projectId}/sources/{sourceId}/openapi.json');
  });
});
