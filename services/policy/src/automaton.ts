/**
 * Aho-Corasick: every occurrence of many patterns in one left-to-right pass over UTF-16 code units, in time linear in
 * the text plus the matches reported. No backtracking: each character moves the state forward once, and failure links
 * only ever shorten the matched suffix, so they cost at most as many steps as characters read.
 */
export class Automaton {
  /** Number of patterns (ids are their indexes). */
  readonly size: number;
  /** Root transitions, dense: most of the time is spent at or near the root. */
  private readonly rootNext = new Int32Array(0x10000);
  /** Other transitions, per node a slice of `edgeChar`/`edgeTarget` sorted by character. */
  private readonly edgeStart: Int32Array;
  private readonly edgeChar: Uint16Array;
  private readonly edgeTarget: Int32Array;
  private readonly fail: Int32Array;
  /** The nearest node on the failure chain that ends a pattern (0: none). */
  private readonly dictLink: Int32Array;
  /** Pattern ids ending at each node: `outIds[outStart[n] .. outStart[n + 1])`. */
  private readonly outStart: Int32Array;
  private readonly outIds: Int32Array;

  constructor(patterns: readonly string[]) {
    this.size = patterns.length;
    const trie = buildTrie(patterns);
    const nodes = trie.children.length;
    this.fail = new Int32Array(nodes);
    this.dictLink = new Int32Array(nodes);
    linkFailures(trie, this.fail, this.dictLink);

    this.edgeStart = new Int32Array(nodes + 1);
    let edges = 0;
    for (let n = 0; n < nodes; n++) edges += n === 0 ? 0 : trie.children[n]!.size;
    this.edgeChar = new Uint16Array(edges);
    this.edgeTarget = new Int32Array(edges);
    let at = 0;
    for (let n = 0; n < nodes; n++) {
      this.edgeStart[n] = at;
      const sorted = [...trie.children[n]!.entries()].sort((a, b) => a[0] - b[0]);
      for (const [char, target] of sorted) {
        if (n === 0) this.rootNext[char] = target;
        else {
          this.edgeChar[at] = char;
          this.edgeTarget[at++] = target;
        }
      }
    }
    this.edgeStart[nodes] = at;

    this.outStart = new Int32Array(nodes + 1);
    const ids: number[] = [];
    for (let n = 0; n < nodes; n++) {
      this.outStart[n] = ids.length;
      ids.push(...trie.outputs[n]!);
    }
    this.outStart[nodes] = ids.length;
    this.outIds = Int32Array.from(ids);
  }

  /** Calls `onMatch(pattern, end)` for every occurrence, in order of `end` (exclusive end index in `text`). */
  scan(text: string, onMatch: (pattern: number, end: number) => void): void {
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      state = this.step(state, text.charCodeAt(i));
      let node = this.outStart[state] !== this.outStart[state + 1] ? state : this.dictLink[state]!;
      while (node > 0) {
        for (let k = this.outStart[node]!; k < this.outStart[node + 1]!; k++) onMatch(this.outIds[k]!, i + 1);
        node = this.dictLink[node]!;
      }
    }
  }

  private step(from: number, char: number): number {
    let state = from;
    for (;;) {
      if (state === 0) return this.rootNext[char]!;
      const next = this.child(state, char);
      if (next >= 0) return next;
      state = this.fail[state]!;
    }
  }

  private child(node: number, char: number): number {
    let low = this.edgeStart[node]!;
    let high = this.edgeStart[node + 1]! - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const c = this.edgeChar[mid]!;
      if (c === char) return this.edgeTarget[mid]!;
      if (c < char) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }
}

interface Trie {
  children: Map<number, number>[];
  outputs: number[][];
}

function buildTrie(patterns: readonly string[]): Trie {
  const trie: Trie = { children: [new Map()], outputs: [[]] };
  patterns.forEach((pattern, id) => {
    if (pattern.length === 0) throw new Error(`Automaton: pattern ${id} is empty`);
    let node = 0;
    for (let i = 0; i < pattern.length; i++) {
      const char = pattern.charCodeAt(i);
      let next = trie.children[node]!.get(char);
      if (next === undefined) {
        next = trie.children.length;
        trie.children.push(new Map());
        trie.outputs.push([]);
        trie.children[node]!.set(char, next);
      }
      node = next;
    }
    trie.outputs[node]!.push(id);
  });
  return trie;
}

/** Breadth-first: a node's failure link is the longest proper suffix of its path that is also a path in the trie. */
function linkFailures(trie: Trie, fail: Int32Array, dictLink: Int32Array): void {
  const queue: number[] = [...trie.children[0]!.values()];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    for (const [char, child] of trie.children[node]!) {
      let f = fail[node]!;
      while (f !== 0 && !trie.children[f]!.has(char)) f = fail[f]!;
      const target = trie.children[f]!.get(char);
      fail[child] = target !== undefined && target !== child ? target : 0;
      dictLink[child] = trie.outputs[fail[child]!]!.length > 0 ? fail[child]! : dictLink[fail[child]!]!;
      queue.push(child);
    }
  }
}
