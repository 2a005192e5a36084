import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { Principal } from './principal';
import { principalOf } from './principal-holder';
import type { Scope } from './scopes';

export const IS_PUBLIC = 'switchboard:public';
export const REQUIRED_SCOPES = 'switchboard:scopes';

/** The route or RPC needs no API key. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);

/** The key must hold every listed scope (admin holds all). Without this, any valid key passes. */
export const RequireScopes = (...scopes: Scope[]): MethodDecorator & ClassDecorator =>
  SetMetadata(REQUIRED_SCOPES, scopes);

/** The verified caller, on HTTP and gRPC handlers alike. */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const principal = principalOf(context);
  if (!principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return principal;
});
