import { SetMetadata } from '@nestjs/common';
import type { JsonRpcCodeTable } from '../errors/json-rpc-error.mapping';

export const JSON_RPC_ENDPOINT = 'switchboard:jsonRpcEndpoint';

export interface JsonRpcEndpointOptions {
  /** The API's own error-code table, if it is not the hub's generic one. */
  codes?: JsonRpcCodeTable;
}

/**
 * Marks a route handler as a JSON-RPC endpoint: errors raised for requests to its paths - even
 * before routing reaches it (no key, a body that is not JSON) - are answered as JSON-RPC error
 * objects, and its requests are counted as `jsonrpc` in the metrics (RoutePolicies reads it).
 */
export const JsonRpcEndpoint = (options: JsonRpcEndpointOptions = {}) => SetMetadata(JSON_RPC_ENDPOINT, options);
