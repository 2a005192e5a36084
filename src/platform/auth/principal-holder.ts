import type { ExecutionContext } from '@nestjs/common';
import type { Principal } from './principal';

/** Where the guard leaves the caller: on the HTTP request, or beside the gRPC call's metadata. */
const byRpcMetadata = new WeakMap<object, Principal>();

export function attachPrincipal(context: ExecutionContext, principal: Principal): void {
  if (context.getType() === 'rpc') {
    byRpcMetadata.set(context.switchToRpc().getContext<object>(), principal);
  } else {
    attachRequestPrincipal(context.switchToHttp().getRequest<object>(), principal);
  }
}

export function principalOf(context: ExecutionContext): Principal | undefined {
  if (context.getType() === 'rpc') return byRpcMetadata.get(context.switchToRpc().getContext<object>());
  return requestPrincipal(context.switchToHttp().getRequest<object>());
}

/** For HTTP requests authenticated outside Nest's guards (the A2A routes). */
export function attachRequestPrincipal(req: object, principal: Principal): void {
  (req as { principal?: Principal }).principal = principal;
}

export function requestPrincipal(req: object): Principal | undefined {
  return (req as { principal?: Principal }).principal;
}
