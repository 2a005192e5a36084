import type { ServerCallContext, User } from '@a2a-js/sdk/server';
import type { Principal } from '../../platform/auth/principal';

/** The SDK's view of the caller: authenticated by API key, named by the key's owner. */
export class A2aUser implements User {
  constructor(
    readonly principal: Principal,
    /** The HTTP base URL the caller reached the hub at, for links in answers (unset: the configured one). */
    readonly httpBase?: string,
  ) {}

  get isAuthenticated(): boolean {
    return true;
  }

  get userName(): string {
    return this.principal.owner;
  }
}

/**
 * The owner tasks and push configs are scoped to. Every hosted route is authenticated, so a call
 * without a caller is a bug: it fails rather than share an "anonymous" scope.
 */
export function ownerOf(context: ServerCallContext): string {
  const user = context.user;
  if (!user?.isAuthenticated || !user.userName) throw new Error('A2A call without an authenticated caller');
  return user.userName;
}
