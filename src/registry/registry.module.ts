import { Module } from '@nestjs/common';
import { A2aModule } from '../a2a/a2a.module';
import { AgentRepository } from './agent.repository';
import { CardResolver } from './card/card-resolver';
import { AgentCardsAliasController, RegistryController } from './registry.controller';
import { RegistryGrpcController } from './registry.grpc.controller';
import { RegistryService } from './registry.service';
import { AgentHealthChecker } from './remote/agent-health-checker';
import { AgentThreads } from './remote/agent-threads';
import { RemoteAgentHosting } from './remote/remote-agent-hosting';
import { RemoteClientFactory } from './remote/remote-client.factory';

/** The agents the hub knows: registration from cards, hosting of remote agents, health checks. */
@Module({
  imports: [A2aModule],
  controllers: [RegistryController, AgentCardsAliasController, RegistryGrpcController],
  providers: [
    AgentRepository,
    CardResolver,
    RegistryService,
    RemoteAgentHosting,
    RemoteClientFactory,
    AgentThreads,
    AgentHealthChecker,
  ],
  exports: [RegistryService, AgentRepository, RemoteAgentHosting],
})
export class RegistryModule {}
