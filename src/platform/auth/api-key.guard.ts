import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Metadata } from '@grpc/grpc-js';
import type { Request, Response } from 'express';
import { ApiKeyService } from './api-key.service';
import { accessOf } from './auth.decorators';
import { PresentedCredentials } from './presented-credentials';
import { keyFromMetadata } from './presented-key';
import { attachPrincipal } from './principal-holder';

/**
 * Global guard: every route and RPC needs a valid API key unless marked @Public().
 * HTTP: `X-Api-Key: <key>` or `Authorization: Bearer <key>`, or the console's session cookie
 * (PresentedCredentials); gRPC: the key as metadata.
 * 401 for a missing or unknown key, 403 for a missing scope.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeyService,
    private readonly credentials: PresentedCredentials,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const required = accessOf(this.reflector, context.getHandler(), context.getClass());
    if (required === 'public') return true;
    const http = context.switchToHttp();
    const principal =
      context.getType() === 'rpc'
        ? await this.keys.authorize(keyFromMetadata(context.switchToRpc().getContext<Metadata>()), required)
        : await this.credentials.authorize(http.getRequest<Request>(), required, http.getResponse<Response>());
    attachPrincipal(context, principal);
    return true;
  }
}
