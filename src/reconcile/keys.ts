/** `GeneralSettings` for a singleton, `ToolVersion/1.6.0` otherwise. */
export function objectKey(kind: string, id: string): string {
  return id === '' ? kind : `${kind}/${id}`;
}
