/**
 * Which user actions bring a user from its live flags to the wanted ones
 * (the site-admin API, user account states; docs/apis.md). Each action answers 400 when
 * the user is already in its target state, so only real changes are asked
 * for. A suspension is lifted first and imposed last, so that rights never
 * change while the user is locked out half-way.
 */
import type { Fields } from '../../reconcile/types.ts';

export type UserAction = 'grant_admin' | 'revoke_admin' | 'suspend' | 'unsuspend';

export function userActions(wanted: Fields, live: Fields): UserAction[] {
  const actions: UserAction[] = [];
  const suspended = wanted['is-suspended'];
  const admin = wanted['is-admin'];
  if (suspended === false && live['is-suspended'] !== false) actions.push('unsuspend');
  if (admin === true && live['is-admin'] !== true) actions.push('grant_admin');
  if (admin === false && live['is-admin'] !== false) actions.push('revoke_admin');
  if (suspended === true && live['is-suspended'] !== true) actions.push('suspend');
  return actions;
}
