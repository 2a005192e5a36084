import { Injectable } from '@nestjs/common';
import { VERSION } from '../../paths';
import { Principal } from '../auth/principal';
import { AppConfig } from '../config/app-config';
import { KeyValueStore } from '../kv/key-value-store';

export interface SystemInfo {
  name: string;
  version: string;
  uptime_seconds: number;
  database: 'embedded' | 'external';
  kv: 'redis' | 'in-process';
  caller: { key_id: string; key_name: string; owner: string; scopes: string[] };
}

/** What the hub is and who is asking; the same answer over REST and gRPC. */
@Injectable()
export class SystemService {
  private readonly startedAt = Date.now();

  constructor(
    private readonly config: AppConfig,
    private readonly kv: KeyValueStore,
  ) {}

  info(caller: Principal): SystemInfo {
    return {
      name: 'switchboard',
      version: VERSION,
      uptime_seconds: Math.floor((Date.now() - this.startedAt) / 1000),
      database: this.config.database.mode,
      kv: this.kv.kind,
      caller: { key_id: caller.keyId, key_name: caller.keyName, owner: caller.owner, scopes: [...caller.scopes] },
    };
  }
}
