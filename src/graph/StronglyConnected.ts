/**
 * Strongly connected components (Tarjan), over a graph given as index adjacency lists. Written
 * without recursion: an import graph can hold components of thousands of modules, deeper than the
 * call stack allows.
 */

/**
 * The components of the subgraph induced by the vertices numbered `from` or more, each listed in
 * ascending vertex order. Edges to vertices below `from` are ignored.
 */
export const stronglyConnected = (adjacency: ReadonlyArray<ReadonlyArray<number>>, from = 0): Array<Array<number>> => {
  const n = adjacency.length
  const index = new Int32Array(n).fill(-1)
  const low = new Int32Array(n)
  const onStack = new Uint8Array(n)
  const stack: Array<number> = []
  const components: Array<Array<number>> = []
  let counter = 0
  const visit = (v: number) => {
    index[v] = counter
    low[v] = counter
    counter += 1
    stack.push(v)
    onStack[v] = 1
  }
  for (let root = from; root < n; root++) {
    if (index[root] !== -1) continue
    visit(root)
    // The explicit call stack: a vertex and the position of the next edge to try from it.
    const vertices = [root]
    const positions = [0]
    while (vertices.length > 0) {
      const top = vertices.length - 1
      const v = vertices[top]!
      const edges = adjacency[v]!
      const i = positions[top]!
      if (i < edges.length) {
        positions[top] = i + 1
        const w = edges[i]!
        if (w < from) continue
        if (index[w] === -1) {
          visit(w)
          vertices.push(w)
          positions.push(0)
        } else if (onStack[w] === 1) {
          low[v] = Math.min(low[v]!, index[w]!)
        }
        continue
      }
      vertices.pop()
      positions.pop()
      if (vertices.length > 0) {
        const parent = vertices[vertices.length - 1]!
        low[parent] = Math.min(low[parent]!, low[v]!)
      }
      if (low[v] === index[v]) {
        const component: Array<number> = []
        let w: number
        do {
          w = stack.pop()!
          onStack[w] = 0
          component.push(w)
        } while (w !== v)
        components.push(component.sort((a, b) => a - b))
      }
    }
  }
  return components
}
