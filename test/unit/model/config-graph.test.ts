// stronglyConnected: Tarjan's components of a graph, the one walk that validation's cycle check
// (unbreakableCycles) and the seed's NOT NULL cycles share. Cases as [name, { given, want }].
import { describe, expect, it } from 'vitest';
import { stronglyConnected } from '../../../src/model/config-graph.ts';

const graph = (edges: Record<string, string[]>) => (node: string) => edges[node] ?? [];

describe('stronglyConnected', () => {
  it.each<[string, { nodes: string[]; edges: Record<string, string[]>; want: string[][] }]>([
    ['no edges: each node alone', { nodes: ['a', 'b'], edges: {}, want: [['a'], ['b']] }],
    ['a chain closes children first', { nodes: ['a', 'b', 'c'], edges: { a: ['b'], b: ['c'] }, want: [['c'], ['b'], ['a']] }],
    ['a cycle is one component', { nodes: ['a', 'b', 'c'], edges: { a: ['b'], b: ['c'], c: ['a'] }, want: [['c', 'b', 'a']] }],
    ['a self loop stays one node', { nodes: ['a'], edges: { a: ['a'] }, want: [['a']] }],
    [
      'two cycles joined one way',
      { nodes: ['a', 'b', 'c', 'd'], edges: { a: ['b'], b: ['a', 'c'], c: ['d'], d: ['c'] }, want: [['d', 'c'], ['b', 'a']] },
    ],
  ])('%s', (_name, { nodes, edges, want }) => {
    expect(stronglyConnected(nodes, graph(edges))).toEqual(want);
  });

  it('walks a chain deeper than the call stack goes', () => {
    const nodes = Array.from({ length: 50_000 }, (_, i) => `n${i}`);
    const edges = (node: string) => {
      const i = Number(node.slice(1));
      return i + 1 < nodes.length ? [`n${i + 1}`] : ['n0'];
    };
    const components = stronglyConnected(nodes, edges);
    expect(components).toHaveLength(1);
    expect(components[0]).toHaveLength(50_000);
  });
});
