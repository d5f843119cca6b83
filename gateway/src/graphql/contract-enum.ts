import { registerEnumType } from 'type-graphql';

/** `openai-compatible` → `OPENAI_COMPATIBLE`: GraphQL enum names are upper-case words. */
const enumName = (value: string) => value.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();

/**
 * A GraphQL enum over a contract's closed list: GraphQL clients see upper-case names, resolvers and services
 * the contract's own values, so nothing is restated by hand and a value added to the contract appears here.
 */
export function contractEnum<V extends string>(
  name: string,
  values: readonly V[],
  options: { description?: string; valueDescriptions?: Partial<Record<V, string>> } = {},
): Record<string, V> {
  const enumObject = Object.fromEntries(values.map((value) => [enumName(value), value])) as Record<string, V>;
  const descriptions = (options.valueDescriptions ?? {}) as Partial<Record<string, string>>;
  registerEnumType(enumObject, {
    name,
    description: options.description,
    valuesConfig: Object.fromEntries(
      values.filter((value) => descriptions[value]).map((value) => [enumName(value), { description: descriptions[value] }]),
    ),
  });
  return enumObject;
}
