/** GraphQL documents an attacker sends, shared by the tests and `bench/abuse`. */

/** `fragment F0 on Query { ...F1 ...F1 }` … : each fragment doubles the paths a naive walk follows. */
export function fragmentChain(length: number): string {
  const fragments = Array.from({ length }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`);
  return `query { ...F0 }\n${fragments.join('\n')}\nfragment F${length} on Query { me { id } }`;
}

/** One request asking for `count` pages of the public gallery. */
export function aliasBomb(count: number): string {
  return `{ ${Array.from({ length: count }, (_, i) => `a${i}: publicImages(first: 100) { edges { node { id } } }`).join(' ')} }`;
}
