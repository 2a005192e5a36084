import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig } from '../../platform/config/app-config';
import { cameOverHttps } from '../../platform/http/request-scheme';

/** Where clients reach the hub: the HTTP base (no trailing slash) and the gRPC host:port. */
export interface HubEndpoints {
  httpBase: string;
  grpcAddress: string;
}

const SAFE_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * Card URLs must be absolute. PUBLIC_URL / PUBLIC_GRPC_ADDRESS win when set; otherwise they are
 * taken from the request (its Host header, or X-Forwarded-Proto/Host with TRUST_PROXY), so a hub
 * reached as http://homeassistant.local:8080 hands out cards that point there.
 */
@Injectable()
export class HubEndpointsResolver {
  constructor(private readonly config: AppConfig) {}

  /** For contexts without a request (gRPC answers, the handlers' own copy of the card). */
  configured(): HubEndpoints {
    const { url, grpcAddress } = this.config.publicEndpoints;
    const host = url ? new URL(url).hostname : 'localhost';
    return {
      httpBase: url ?? `http://localhost:${this.config.http.port}`,
      grpcAddress: grpcAddress ?? `${host}:${this.config.grpc.port}`,
    };
  }

  fromRequest(req: Request): HubEndpoints {
    const httpBase = this.httpBaseOf(req);
    const { grpcAddress } = this.config.publicEndpoints;
    // URL.hostname keeps an IPv6 address in brackets, as host:port needs it.
    return { httpBase, grpcAddress: grpcAddress ?? `${new URL(httpBase).hostname}:${this.config.grpc.port}` };
  }

  /** Just the HTTP base of `fromRequest` (what links in answers need), without parsing it as a URL. */
  httpBaseOf(req: Request): string {
    const { url, trustProxy } = this.config.publicEndpoints;
    if (url) return url;
    const forwardedHost = trustProxy ? first(req.headers['x-forwarded-host']) : undefined;
    const rawHost = forwardedHost ?? req.headers.host;
    const host = rawHost && SAFE_HOST.test(rawHost) ? rawHost : `localhost:${this.config.http.port}`;
    const proto = cameOverHttps(req, trustProxy) ? 'https' : 'http';
    return `${proto}://${host}`;
  }
}

function first(value: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  return raw?.split(',')[0]?.trim() || undefined;
}
