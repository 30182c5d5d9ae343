/**
 * The floor plan of ARCHITECTURE.md: no import cycle among the modules of src/ (type-only
 * imports included: a cycle of types is still a cycle of concepts), and the module graph this
 * test walks is the real one (it finds the edges we know of).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from '../helpers/sourceFiles.js';

/** Static imports and re-exports of relative modules; `import('./x')` (loaded on use) is not an edge of start-up, but is one here too. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/\b(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1]!);
  return specifiers.map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts'))).filter((path) => path.endsWith('.ts'));
}

/** Tarjan's strongly connected components of more than one module (or a module importing itself). */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const lowlinks = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    indices.set(node, index);
    lowlinks.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!indices.has(next)) {
        visit(next);
        lowlinks.set(node, Math.min(lowlinks.get(node)!, lowlinks.get(next)!));
      } else if (onStack.has(next)) lowlinks.set(node, Math.min(lowlinks.get(node)!, indices.get(next)!));
    }
    if (lowlinks.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component);
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

describe('the module graph of src/', () => {
  const graph = new Map(sourceFiles(SRC).map((file) => [file, importsOf(file)]));

  it('is read from the sources (it holds edges we know of)', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get(join(SRC, 'cli/main.ts'))).toContain(join(SRC, 'cli/program.ts'));
  });

  it('has no import cycle', () => {
    const named = cycles(graph).map((component) => component.map((file) => relative(SRC, file)).sort());
    expect(named).toEqual([]);
  });

  it('finds a cycle when there is one (the check itself works)', () => {
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']],
        ]),
      ),
    ).toHaveLength(1);
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });
});
