import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { SecretBox } from '../crypto/secret-box';
import { OutboundHttp } from '../net/outbound-http';

/** Largest agent card or other JSON document the hub reads from a remote server. */
const MAX_OUTBOUND_JSON_BYTES = 1024 * 1024;

/**
 * What the hub needs to reach out safely: the SSRF-guarded HTTP client (private networks and
 * loopback allowed only when ALLOW_PRIVATE_NETWORK_TARGETS says so) and the SecretBox that keeps
 * the credentials it uses encrypted at rest.
 */
@Global()
@Module({
  providers: [
    {
      provide: OutboundHttp,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new OutboundHttp({
          allowPrivateNetworks: config.outbound.allowPrivateNetworks,
          allowLoopback: config.outbound.allowPrivateNetworks,
          timeoutMs: config.outbound.timeoutMs,
          maxResponseBytes: MAX_OUTBOUND_JSON_BYTES,
          maxAnswerBytes: config.outbound.maxResponseBytes,
        }),
    },
    { provide: SecretBox, inject: [AppConfig], useFactory: (config: AppConfig) => SecretBox.fromConfig(config) },
  ],
  exports: [OutboundHttp, SecretBox],
})
export class OutboundModule implements OnApplicationShutdown {
  constructor(@Inject(OutboundHttp) private readonly http: OutboundHttp) {}

  async onApplicationShutdown(): Promise<void> {
    await this.http.close();
  }
}
