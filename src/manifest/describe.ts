/** Words for types and values in problem messages. Secret values are never shown. */

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'a mapping',
  array: 'a list',
  null: 'null',
};

export function typeWords(types: string | readonly string[]): string {
  const list = typeof types === 'string' ? [types] : types;
  const words = list.map((t) => TYPE_WORDS[t] ?? t);
  return words.length <= 1 ? (words[0] ?? 'nothing') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

const MAX_SHOWN = 40;

export function describeValue(value: unknown, secret: boolean): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      if (secret) return 'a string, value hidden';
      return `string ${JSON.stringify(value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}...` : value)}`;
    case 'number':
    case 'boolean':
      return secret ? `a ${typeof value}, value hidden` : `${typeof value} ${value}`;
    case 'object':
      return 'a mapping';
    default:
      return typeof value;
  }
}
