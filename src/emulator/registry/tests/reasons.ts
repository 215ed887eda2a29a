/**
 * Why an assert could not be evaluated. The log groups asserts by reason
 * ("assumed to pass: 1 assert that reads resource attributes, 2 asserts that
 * call format()"), so each reason carries its verb in both numbers.
 */

export interface Reason {
  /** Completes "1 assert that ...". */
  one: string;
  /** Completes "2 asserts that ...". */
  many: string;
}

const PLURAL_VERBS: Record<string, string> = {
  reads: 'read',
  calls: 'call',
  uses: 'use',
  is: 'are',
  expects: 'expect',
};

/** A reason from its singular wording; the first word is the verb ("reads resource attributes"). */
export function reason(one: string): Reason {
  const [verb = '', ...rest] = one.split(' ');
  return { one, many: [PLURAL_VERBS[verb] ?? verb, ...rest].join(' ') };
}

/** The reason for reading `<root>.…` in a condition, by the root of the reference. */
export function reasonForReference(root: string, reference: string): Reason {
  switch (root) {
    case 'output':
    case 'module':
      return reason('reads module outputs');
    case 'run':
      return reason('reads outputs of other runs');
    case 'data':
      return reason('reads data sources');
    case 'local':
      return reason('reads local values');
    case 'var':
      return reason(`reads inside a variable (${reference})`);
    case 'each':
    case 'count':
    case 'path':
    case 'terraform':
      return reason(`reads ${root}.* values`);
    default:
      return reason('reads resource attributes');
  }
}
