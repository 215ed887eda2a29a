/**
 * parseLdif: RFC 2849 text to records. Both content records (plain entries,
 * reported as 'add') and change records (add, delete, modify, modrdn/moddn)
 * are accepted, mixed, since a role's creation LDIF typically adds a person
 * and then modifies a group. Anything the emulator cannot honour faithfully
 * (controls, URL values, binary values, "increment:") is an LdifError rather
 * than being ignored.
 */
import { type AttrValue, parseAttrValue } from './attr-value.ts';
import { DnError, parseRdns } from './dn.ts';
import { type LogicalLine, logicalBlocks } from './lines.ts';
import type {
  LdifAddRecord,
  LdifAttribute,
  LdifModification,
  LdifModifyRecord,
  LdifModRdnRecord,
  LdifRecord,
} from './types.ts';

const CHANGETYPES = ['add', 'delete', 'modify', 'modrdn', 'moddn'] as const;
const MODIFY_OPS = ['add', 'delete', 'replace'] as const;

/** Parses LDIF text; throws LdifError with the line and column of the first problem. */
export function parseLdif(text: string): LdifRecord[] {
  const blocks = logicalBlocks(text);
  stripVersion(blocks);
  return blocks.filter((block) => block.length > 0).map(parseRecord);
}

/** Removes a leading "version: 1" line (it may share a block with the first record). */
function stripVersion(blocks: LogicalLine[][]): void {
  const first = blocks[0]?.[0];
  if (!first || !/^version:/i.test(first.text)) return;
  const { value, valueOffset } = parseAttrValue(first);
  if (value.trim() !== '1') throw first.error(`unsupported LDIF version "${value}" (only 1 exists)`, valueOffset);
  blocks[0]!.shift();
}

function parseRecord(block: LogicalLine[]): LdifRecord {
  const dnLine = block[0]!;
  if (!/^dn::?/i.test(dnLine.text)) {
    const seen = dnLine.text.split(':')[0];
    throw dnLine.error(`expected "dn:", found "${seen}"`);
  }
  const dn = checkedDn(dnLine, parseAttrValue(dnLine), false);
  const rest = block.slice(1);
  const head = rest[0];
  if (head && /^control:/i.test(head.text)) throw head.error('LDIF controls ("control:") are not supported');
  if (!head || !/^changetype:/i.test(head.text)) return parseAdd(dnLine, dn, rest);
  const { value, valueOffset } = parseAttrValue(head);
  const changetype = value.trim().toLowerCase();
  if (changetype === '') {
    throw head.error(`missing changetype value (expected one of ${CHANGETYPES.join(', ')})`, valueOffset);
  }
  const body = rest.slice(1);
  switch (changetype) {
    case 'add':
      return parseAdd(dnLine, dn, body);
    case 'delete':
      if (body[0]) throw body[0].error('a delete record has no lines after "changetype: delete"');
      return { line: dnLine.line, dn, changetype: 'delete' };
    case 'modify':
      return parseModify(dnLine, dn, body);
    case 'modrdn':
    case 'moddn':
      return parseModRdn(dnLine, dn, changetype, body);
    default:
      throw head.error(`unknown changetype "${value.trim()}" (expected one of ${CHANGETYPES.join(', ')})`, valueOffset);
  }
}

/** Validates a DN-valued line; `allowEmpty` for newsuperior (the root). */
function checkedDn(line: LogicalLine, { name, value, valueOffset }: AttrValue, allowEmpty: boolean): string {
  if (value.trim() === '' && !allowEmpty) throw line.error(`"${name}:" has no value`, valueOffset);
  try {
    parseRdns(value);
  } catch (error) {
    if (error instanceof DnError) throw line.error(error.message, valueOffset + error.index);
    throw error;
  }
  return value;
}

function parseAdd(dnLine: LogicalLine, dn: string, lines: LogicalLine[]): LdifAddRecord {
  if (lines.length === 0) throw dnLine.error(`entry "${dn}" has no attributes`);
  const attributes: LdifAttribute[] = [];
  for (const line of lines) {
    if (line.text.trim() === '-') throw line.error('"-" only separates the changes of a modify record');
    const { name, value } = parseAttrValue(line);
    // Lines of one attribute need not be adjacent; gather them under the first spelling.
    const existing = attributes.find((attribute) => attribute.name.toLowerCase() === name.toLowerCase());
    if (existing) existing.values.push(value);
    else attributes.push({ name, values: [value] });
  }
  return { line: dnLine.line, dn, changetype: 'add', attributes };
}

function parseModify(dnLine: LogicalLine, dn: string, lines: LogicalLine[]): LdifModifyRecord {
  const changes: LdifModification[] = [];
  let index = 0;
  while (index < lines.length) {
    const opLine = lines[index]!;
    const { name, value, valueOffset } = parseAttrValue(opLine, '"add:", "delete:" or "replace:"');
    const op = MODIFY_OPS.find((candidate) => candidate === name.toLowerCase());
    if (!op) throw opLine.error(`expected "add:", "delete:" or "replace:", found "${name}:"`);
    const attribute = value.trim();
    if (attribute === '') throw opLine.error(`"${name}:" needs the attribute it changes`, valueOffset);
    const values: string[] = [];
    index++;
    for (; index < lines.length; index++) {
      const line = lines[index]!;
      if (line.text.trim() === '-') {
        index++;
        break;
      }
      const spec = parseAttrValue(line);
      if (spec.name.toLowerCase() !== attribute.toLowerCase()) {
        throw line.error(`expected a value of "${attribute}" or "-", found "${spec.name}:"`);
      }
      values.push(spec.value);
    }
    // A missing "-" after the last change is tolerated (ldapmodify accepts it too).
    changes.push({ op, attribute, values });
  }
  if (changes.length === 0) throw dnLine.error(`modify record for "${dn}" has no changes`);
  return { line: dnLine.line, dn, changetype: 'modify', changes };
}

function parseModRdn(
  dnLine: LogicalLine,
  dn: string,
  changetype: 'modrdn' | 'moddn',
  lines: LogicalLine[],
): LdifModRdnRecord {
  let newrdn: string | undefined;
  let deleteoldrdn: boolean | undefined;
  let newsuperior: string | undefined;
  for (const line of lines) {
    const spec = parseAttrValue(line);
    const name = spec.name.toLowerCase();
    if (name === 'newrdn' && newrdn === undefined) {
      newrdn = checkedDn(line, spec, false);
      if (parseRdns(newrdn).length !== 1) throw line.error(`newrdn "${newrdn}" is not a single RDN`, spec.valueOffset);
    } else if (name === 'deleteoldrdn' && deleteoldrdn === undefined) {
      const flag = spec.value.trim();
      if (flag !== '0' && flag !== '1')
        throw line.error(`deleteoldrdn must be 0 or 1, not "${flag}"`, spec.valueOffset);
      deleteoldrdn = flag === '1';
    } else if (name === 'newsuperior' && newsuperior === undefined) {
      newsuperior = checkedDn(line, spec, true);
    } else {
      throw line.error(`unexpected "${spec.name}:" in a ${changetype} record`);
    }
  }
  if (newrdn === undefined) throw dnLine.error(`${changetype} record for "${dn}" has no "newrdn:"`);
  if (deleteoldrdn === undefined) throw dnLine.error(`${changetype} record for "${dn}" has no "deleteoldrdn:"`);
  const record: LdifModRdnRecord = { line: dnLine.line, dn, changetype, newrdn, deleteoldrdn };
  if (newsuperior !== undefined) record.newsuperior = newsuperior;
  return record;
}
