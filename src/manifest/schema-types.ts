/**
 * The JSON Schema types wanted at a dotted path of a document, read from the
 * kind's schema. Pure; follows `properties`, `items`, `additionalProperties`
 * and local `$ref`s, which is all our schemas use.
 */
type SchemaNode = { [key: string]: unknown };

export function typesAt(root: SchemaNode, path: string): readonly string[] | undefined {
  let node: SchemaNode | undefined = root;
  for (const segment of path === '' ? [] : path.split('.')) {
    node = deref(root, node);
    node = child(node, segment);
    if (node === undefined) return undefined;
  }
  const type = deref(root, node)?.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? (type as string[]) : undefined;
}

/** Whether the schema describes a value at the dotted path; a `*` segment stands for any key or index. */
export function hasPath(root: SchemaNode, path: string): boolean {
  return hasNode(root, root, path === '' ? [] : path.split('.'));
}

function hasNode(root: SchemaNode, node: SchemaNode | undefined, segments: readonly string[]): boolean {
  const resolved = deref(root, node);
  if (resolved === undefined || segments.length === 0) return resolved !== undefined;
  const [segment, ...rest] = segments;
  if (segment !== '*') return hasNode(root, child(resolved, segment as string), rest);
  const named = Object.values(asNode(resolved.properties) ?? {});
  return [...named, resolved.items, resolved.additionalProperties].some((c) => {
    const node = asNode(c);
    return node !== undefined && hasNode(root, node, rest);
  });
}

function child(node: SchemaNode | undefined, segment: string): SchemaNode | undefined {
  if (node === undefined) return undefined;
  const properties = asNode(node.properties);
  if (properties && Object.hasOwn(properties, segment)) return asNode(properties[segment]);
  if (/^\d+$/.test(segment) && asNode(node.items)) return asNode(node.items);
  return asNode(node.additionalProperties);
}

function deref(root: SchemaNode, node: SchemaNode | undefined): SchemaNode | undefined {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 16; hops += 1) {
    const ref: string = current.$ref;
    if (!ref.startsWith('#/')) return undefined;
    let target: SchemaNode | undefined = root;
    for (const segment of ref.slice(2).split('/')) target = asNode(target?.[decodeURIComponent(segment)]);
    current = target;
  }
  return current;
}

function asNode(value: unknown): SchemaNode | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as SchemaNode) : undefined;
}
