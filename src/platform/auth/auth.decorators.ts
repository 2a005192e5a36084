import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
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

/**
 * What a handler asks of its caller, from the decorators above (the handler's own before its
 * class's): `public`, or the scopes its key must hold (none: any valid key). ApiKeyGuard and the
 * gRPC lane both decide by this.
 */
export function accessOf(reflector: Reflector, handler: object, controller: object): 'public' | Scope[] {
  const targets = [handler, controller] as Parameters<Reflector['getAllAndOverride']>[1];
  if (reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return 'public';
  return reflector.getAllAndOverride<Scope[]>(REQUIRED_SCOPES, targets) ?? [];
}

/** The verified caller, on HTTP and gRPC handlers alike. */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const principal = principalOf(context);
  if (!principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return principal;
});
