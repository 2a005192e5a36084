/**
 * Cycle detection over "waits for" edges: a task waits for its dependencies, and a parent waits
 * for its children (children run first). Iterative, so deep trees do not overflow the stack.
 * Returns the cycle as ids from a node back to itself (`[a, b, a]`), or null.
 */
export function findCycle(nodes: Iterable<string>, waitsFor: (id: string) => Iterable<string>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  for (const start of nodes) {
    if (state.has(start)) continue;
    const path: string[] = [];
    const stack: { id: string; next: Iterator<string> }[] = [];
    const enter = (id: string) => {
      state.set(id, 'open');
      path.push(id);
      stack.push({ id, next: waitsFor(id)[Symbol.iterator]() });
    };
    enter(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const step = top.next.next();
      if (step.done) {
        state.set(top.id, 'done');
        stack.pop();
        path.pop();
        continue;
      }
      const target = step.value;
      const seen = state.get(target);
      if (seen === 'open') return [...path.slice(path.indexOf(target)), target];
      if (seen === undefined) enter(target);
    }
  }
  return null;
}

/** "a -> b -> a", by task name (ids where a name is missing). */
export function describeCycle(cycle: string[], nameOf: (id: string) => string | undefined): string {
  return cycle.map((id) => nameOf(id) ?? id).join(' -> ');
}
