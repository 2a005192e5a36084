import { describeCycle, findCycle } from './task-graph';

function graph(edges: Record<string, string[]>) {
  return (id: string) => edges[id] ?? [];
}

describe('findCycle', () => {
  it('finds none in a DAG with shared dependencies', () => {
    expect(findCycle(['a', 'b', 'c', 'd'], graph({ a: ['b', 'c'], b: ['d'], c: ['d'] }))).toBeNull();
  });

  it('names a two-task cycle from its first task back to it', () => {
    const cycle = findCycle(['a', 'b'], graph({ a: ['b'], b: ['a'] }));
    expect(cycle).toEqual(['a', 'b', 'a']);
    expect(describeCycle(cycle!, (id) => ({ a: 'fetch', b: 'parse' })[id])).toBe('fetch -> parse -> fetch');
  });

  it('finds a self-dependency', () => {
    expect(findCycle(['x'], graph({ x: ['x'] }))).toEqual(['x', 'x']);
  });

  it('reports only the cycle, not the path that led to it', () => {
    expect(findCycle(['s'], graph({ s: ['a'], a: ['b'], b: ['c'], c: ['a'] }))).toEqual(['a', 'b', 'c', 'a']);
  });

  it('handles a 100,000-task chain without overflowing the stack', () => {
    const ids = Array.from({ length: 100_000 }, (_, i) => `t${i}`);
    const waits = (id: string) => {
      const i = Number(id.slice(1));
      return i + 1 < ids.length ? [`t${i + 1}`] : [];
    };
    expect(findCycle(ids, waits)).toBeNull();
  });
});
