import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Metadata } from '@grpc/grpc-js';
import type { Request } from 'express';
import { ApiKeyService } from './api-key.service';
import { IS_PUBLIC, REQUIRED_SCOPES } from './auth.decorators';
import { keyFromHeaders, keyFromMetadata } from './presented-key';
import { attachPrincipal } from './principal-holder';
import type { Scope } from './scopes';

/**
 * Global guard: every route and RPC needs a valid API key unless marked @Public().
 * HTTP: `X-Api-Key: <key>` or `Authorization: Bearer <key>`; gRPC: the same as metadata.
 * 401 for a missing or unknown key, 403 for a missing scope.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeyService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const key =
      context.getType() === 'rpc'
        ? keyFromMetadata(context.switchToRpc().getContext<Metadata>())
        : keyFromHeaders(context.switchToHttp().getRequest<Request>().headers);
    const required = this.reflector.getAllAndOverride<Scope[]>(REQUIRED_SCOPES, targets) ?? [];
    attachPrincipal(context, await this.keys.authorize(key, required));
    return true;
  }
}
